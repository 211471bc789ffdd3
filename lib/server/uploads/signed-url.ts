import "server-only";
import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { getJwtSecret } from "@/lib/server/auth/secret";
import { ApiError } from "@/lib/server/http/errors";

/** How long an issued upload URL accepts its PUT. */
export const UPLOAD_URL_LIFETIME_MS = 15 * 60 * 1000;

/** The path an upload URL points at; the file name follows it. */
export const UPLOAD_FILE_PATH = "/api/upload/file/";

let cachedKey: Promise<Buffer> | undefined;

/**
 * The HMAC key for upload URLs, derived from the JWT secret with HKDF under its own label, so no
 * extra secret is configured and a token signature can never double as an upload signature.
 */
export function getUploadUrlKey(): Promise<Buffer> {
  cachedKey ??= getJwtSecret()
    .then((secret) =>
      Buffer.from(hkdfSync("sha256", secret, "heirloom", "heirloom upload-url v1", 32)),
    )
    .catch((error: unknown) => {
      cachedKey = undefined;
      throw error;
    });
  return cachedKey;
}

function sign(key: Uint8Array, filename: string, expires: number): string {
  return createHmac("sha256", key).update(`PUT\n${filename}\n${expires}`).digest("base64url");
}

/** The path and query of a signed upload URL for `filename`, valid until `expiresAt`. */
export function signUploadPath(key: Uint8Array, filename: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const query = new URLSearchParams({
    expires: String(expires),
    signature: sign(key, filename, expires),
  });
  return `${UPLOAD_FILE_PATH}${filename}?${query.toString()}`;
}

/**
 * Checks a signed upload URL's query for `filename`: a wrong or missing signature is 400, an
 * expired one 410. (Never 403: the client treats 403 as "logged out".)
 */
export function verifyUploadSignature(
  key: Uint8Array,
  filename: string,
  query: { expires?: string | null; signature?: string | null },
  now: Date,
): void {
  const invalid = new ApiError(400, "This upload URL is not valid. Please upload the file again.");
  const { expires, signature } = query;
  if (!expires || !signature || !/^\d{1,12}$/.test(expires)) throw invalid;
  const expected = Buffer.from(sign(key, filename, Number(expires)));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid;
  if (Number(expires) * 1000 <= now.getTime()) {
    throw new ApiError(410, "This upload URL has expired. Please upload the file again.");
  }
}
