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

/**
 * How long the link mailed to the old address after an email change works: a week, since the
 * owner of a taken-over account may not read that mail at once (issue 22.5).
 */
export const EMAIL_RESTORE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export function restoreEmailLink(appUrl: string, username: string, token: string): string {
  return `${appUrl}/restore-email?t=${token}&u=${encodeURIComponent(username)}`;
}
