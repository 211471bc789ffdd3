import "server-only";
import { createHash, randomBytes } from "node:crypto";

/** How long an emailed reset link works. */
export const RESET_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

/** The stored form of a reset token: only its SHA-256 is kept, so a database leak reveals no links. */
export function hashResetToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A new reset token: 32 random bytes (256 bits) as base64url, plus the hash to store. */
export function createResetToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashResetToken(token) };
}

export function resetPasswordLink(appUrl: string, username: string, token: string): string {
  return `${appUrl}/reset-password?t=${token}&u=${encodeURIComponent(username)}`;
}
