import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import { ApiError } from "@/lib/server/http/errors";
import {
  getUploadUrlKey,
  signUploadPath,
  UPLOAD_FILE_PATH,
  verifyUploadSignature,
} from "./signed-url";

const key = Buffer.alloc(32, 7);
const filename = "avatar/0b1c2d3e-aaaa-bbbb-cccc-123456789abc.png";
const now = new Date("2030-01-01T12:00:00Z");
const expiresAt = new Date(now.getTime() + 15 * 60 * 1000);

function queryOf(path: string) {
  const url = new URL(path, "http://x");
  return {
    path: url.pathname,
    expires: url.searchParams.get("expires"),
    signature: url.searchParams.get("signature"),
  };
}

function refusal(fn: () => void): { status: number; detail: string } | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, detail: error.detail };
    throw error;
  }
}

describe("signed upload URLs", () => {
  const signed = queryOf(signUploadPath(key, filename, expiresAt));

  it("points at the upload file path and carries expiry and signature", () => {
    expect(signed.path).toBe(`${UPLOAD_FILE_PATH}${filename}`);
    expect(signed.expires).toBe(String(expiresAt.getTime() / 1000));
    expect(signed.signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("verifies an untouched URL before it expires", () => {
    expect(refusal(() => verifyUploadSignature(key, filename, signed, now))).toBeNull();
  });

  const invalid = {
    status: 400,
    detail: "This upload URL is not valid. Please upload the file again.",
  };
  const flipped = `${signed.signature!.slice(0, -1)}${signed.signature!.endsWith("A") ? "B" : "A"}`;
  it.each([
    ["a tampered signature", filename, { ...signed, signature: flipped }, key, invalid],
    ["a signature for another file", "avatar/other.png", signed, key, invalid],
    [
      "a moved expiry",
      filename,
      { ...signed, expires: String(Number(signed.expires) + 3600) },
      key,
      invalid,
    ],
    ["no signature", filename, { expires: signed.expires }, key, invalid],
    ["no expiry", filename, { signature: signed.signature }, key, invalid],
    ["a non-numeric expiry", filename, { ...signed, expires: "1e99" }, key, invalid],
    ["another key", filename, signed, Buffer.alloc(32, 8), invalid],
  ])("refuses %s", (_name, name, query, withKey, expected) => {
    expect(refusal(() => verifyUploadSignature(withKey, name, query, now))).toEqual(expected);
  });

  it("refuses an expired URL with 410", () => {
    expect(refusal(() => verifyUploadSignature(key, filename, signed, expiresAt))).toEqual({
      status: 410,
      detail: "This upload URL has expired. Please upload the file again.",
    });
  });
});

describe("getUploadUrlKey", () => {
  const secret = "unit-test-secret-that-is-at-least-32-characters";
  beforeAll(() => {
    vi.stubEnv("JWT_SECRET", secret);
    resetEnvForTests();
  });
  afterAll(() => {
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("derives a stable 32-byte key from the JWT secret, distinct from the secret itself", async () => {
    const derived = await getUploadUrlKey();
    expect(derived).toHaveLength(32);
    expect(await getUploadUrlKey()).toEqual(derived);
    expect(derived.equals(Buffer.from(secret).subarray(0, 32))).toBe(false);
    const path = signUploadPath(derived, filename, expiresAt);
    expect(refusal(() => verifyUploadSignature(derived, filename, queryOf(path), now))).toBeNull();
  });
});
