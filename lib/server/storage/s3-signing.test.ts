// Presigned upload URLs, checked without trusting the SDK or an S3 server (s3rver accepts any
// SigV4 signature): an independent SigV4 verifier written from AWS's specification with
// node:crypto, itself checked against AWS's published example, recomputes each URL's signature.
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { UPLOAD_URL_LIFETIME_MS } from "@/lib/server/uploads/signed-url";
import { MAX_PRESIGNED_SECONDS, S3Storage, type S3Config } from "./s3";

// AWS's example credentials and request ("Authenticating Requests: Using Query Parameters").
const AWS_EXAMPLE = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  url:
    "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256" +
    "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request" +
    "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host" +
    "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
  canonicalRequestHash: "3bfa292879f6447bbcda7001decf97f4a54dc650c8942174ae0a9121cf58ad04",
};

/** RFC 3986 encoding as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ is %XX. */
const uriEncode = (text: string) =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const hmac = (key: Buffer | string, text: string) =>
  createHmac("sha256", key).update(text).digest();

/**
 * SigV4 for a presigned (query-string) S3 request, from the specification: the canonical request
 * (method, URI, sorted query without the signature, the signed headers, UNSIGNED-PAYLOAD), the
 * string to sign over its hash, and the HMAC chain of the secret over date, region, service.
 */
function sigV4(request: {
  method: string;
  url: string;
  headers: Record<string, string>;
  secretAccessKey: string;
}) {
  const url = new URL(request.url);
  const query = url.searchParams;
  const signedHeaders = (query.get("X-Amz-SignedHeaders") ?? "").split(";");
  const headers: Record<string, string> = { host: url.host, ...request.headers };
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== "X-Amz-Signature")
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonicalUri = url.pathname
    .split("/")
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join("/");
  const canonicalRequest = [
    request.method,
    canonicalUri,
    canonicalQuery,
    ...signedHeaders.map((name) => `${name}:${(headers[name] ?? "").trim()}`),
    "",
    signedHeaders.join(";"),
    "UNSIGNED-PAYLOAD",
  ].join("\n");
  const credential = query.get("X-Amz-Credential") ?? "";
  const [, date = "", region = "", service = "", terminator = ""] = credential.split("/");
  const scope = [date, region, service, terminator].join("/");
  const stringToSign = [
    query.get("X-Amz-Algorithm"),
    query.get("X-Amz-Date"),
    scope,
    sha256(canonicalRequest),
  ].join("\n");
  let key = hmac(`AWS4${request.secretAccessKey}`, date);
  for (const part of [region, service, terminator]) key = hmac(key, part);
  return {
    canonicalRequestHash: sha256(canonicalRequest),
    signature: createHmac("sha256", key).update(stringToSign).digest("hex"),
    given: query.get("X-Amz-Signature"),
  };
}

/** Whether the URL's signature is right for a PUT with these headers under this secret. */
function verifies(url: string, contentType: string, secretAccessKey: string): boolean {
  const { signature, given } = sigV4({
    method: "PUT",
    url,
    headers: { "content-type": contentType },
    secretAccessKey,
  });
  return signature === given;
}

const R2: S3Config = {
  bucket: "heirloom-images",
  endpoint: "https://0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com",
  region: "auto",
  accessKeyId: AWS_EXAMPLE.accessKeyId,
  secretAccessKey: AWS_EXAMPLE.secretAccessKey,
  forcePathStyle: false,
  directUploads: true,
};
const NOW = new Date("2026-11-24T12:00:00Z");
const IN_15_MINUTES = new Date(NOW.getTime() + UPLOAD_URL_LIFETIME_MS);
const KEY = "incoming/avatar/6f1c1f8e-6c59-4a63-9a35-0b1f2e3d4c5b.png";

function presign(
  config: S3Config = R2,
  key = KEY,
  contentType = "image/png",
  expiresAt = IN_15_MINUTES,
) {
  return new S3Storage(config).signedUploadUrl!(key, contentType, expiresAt, NOW);
}
const signatureOf = (url: string) => new URL(url).searchParams.get("X-Amz-Signature");

describe("the independent SigV4 verifier", () => {
  it("reproduces AWS's published presigned-URL example", () => {
    const result = sigV4({
      method: "GET",
      url: AWS_EXAMPLE.url,
      headers: {},
      secretAccessKey: AWS_EXAMPLE.secretAccessKey,
    });
    expect(result.canonicalRequestHash).toBe(AWS_EXAMPLE.canonicalRequestHash);
    expect(result.signature).toBe(result.given);
    expect(result.signature).toBe(
      "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404",
    );
  });

  it("rejects the example under another secret or with a changed expiry", () => {
    const other = sigV4({
      method: "GET",
      url: AWS_EXAMPLE.url,
      headers: {},
      secretAccessKey: "another-secret",
    });
    expect(other.signature).not.toBe(other.given);
    const longer = sigV4({
      method: "GET",
      url: AWS_EXAMPLE.url.replace("X-Amz-Expires=86400", "X-Amz-Expires=86401"),
      headers: {},
      secretAccessKey: AWS_EXAMPLE.secretAccessKey,
    });
    expect(longer.signature).not.toBe(longer.given);
  });
});

describe("presigned upload URLs", () => {
  it("are valid SigV4 for a PUT of the one content type, on R2 (virtual host) and MinIO (path style)", async () => {
    const onR2 = await presign();
    const url = new URL(onR2);
    expect(url.host).toBe(
      "heirloom-images.0123456789abcdef0123456789abcdef.r2.cloudflarestorage.com",
    );
    expect(url.pathname).toBe(`/${KEY}`);
    expect(url.searchParams.get("X-Amz-Credential")).toBe(
      `${AWS_EXAMPLE.accessKeyId}/20261124/auto/s3/aws4_request`,
    );
    expect(url.searchParams.get("X-Amz-Date")).toBe("20261124T120000Z");
    expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-type;host");
    expect(verifies(onR2, "image/png", AWS_EXAMPLE.secretAccessKey)).toBe(true);

    const onMinio = await presign({
      ...R2,
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      forcePathStyle: true,
    });
    expect(new URL(onMinio).pathname).toBe(`/heirloom-images/${KEY}`);
    expect(verifies(onMinio, "image/png", AWS_EXAMPLE.secretAccessKey)).toBe(true);

    const onAws = await presign({ ...R2, endpoint: undefined, region: "eu-central-1" });
    expect(new URL(onAws).host).toBe("heirloom-images.s3.eu-central-1.amazonaws.com");
    expect(verifies(onAws, "image/png", AWS_EXAMPLE.secretAccessKey)).toBe(true);
  });

  it("do not verify for another content type, secret, key, expiry, time or a tampered signature", async () => {
    const url = await presign();
    const secret = AWS_EXAMPLE.secretAccessKey;
    expect(verifies(url, "image/jpeg", secret)).toBe(false);
    expect(verifies(url, "text/html", secret)).toBe(false);
    expect(verifies(url, "image/png", `${secret}x`)).toBe(false);
    expect(verifies(url.replace("/incoming/avatar/", "/avatar/"), "image/png", secret)).toBe(false);
    expect(
      verifies(url.replace("X-Amz-Expires=900", "X-Amz-Expires=86400"), "image/png", secret),
    ).toBe(false);
    expect(verifies(url.replace("T120000Z", "T130000Z"), "image/png", secret)).toBe(false);
    const signature = signatureOf(url)!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`;
    expect(verifies(url.replace(signature, flipped), "image/png", secret)).toBe(false);
  });

  it("get a different signature when the key, expiry, content type or secret changes", async () => {
    const base = signatureOf(await presign());
    const changed = [
      await presign(R2, KEY.replace(".png", ".jpg")),
      await presign(R2, KEY, "image/png", new Date(IN_15_MINUTES.getTime() + 1000)),
      await presign(R2, KEY, "image/jpeg"),
      await presign({ ...R2, secretAccessKey: "another-secret-key" }),
    ].map(signatureOf);
    for (const signature of changed) expect(signature).not.toBe(base);
    expect(new Set(changed).size).toBe(changed.length);
    // Signing is deterministic: the same inputs give the same URL.
    expect(await presign()).toBe(await presign());
  });

  it("expire 15 minutes after they are made, and never live past an hour", async () => {
    expect(new URL(await presign()).searchParams.get("X-Amz-Expires")).toBe("900");
    expect(UPLOAD_URL_LIFETIME_MS).toBeLessThanOrEqual(15 * 60 * 1000);
    const tooLong = new Date(NOW.getTime() + (MAX_PRESIGNED_SECONDS + 1) * 1000);
    await expect(presign(R2, KEY, "image/png", tooLong)).rejects.toThrow(/presigned URL lives/);
    await expect(presign(R2, KEY, "image/png", NOW)).rejects.toThrow(/presigned URL lives/);
  });
});
