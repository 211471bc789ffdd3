import "server-only";
import { verifyPassword } from "@/lib/server/auth/password";
import { SESSION_EXPIRED, endSession } from "@/lib/server/auth/session";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { PASSWORD_CHECK_PER_SESSION, hitRateLimit, refundRateLimit } from "@/lib/server/rate-limit";

/**
 * Throws 400 unless `password` is the user's password (the session itself is fine). Wrong
 * passwords are counted per session, before the check (a right one gives its count back), and
 * the one that reaches PASSWORD_CHECK_PER_SESSION ends the session that sent it, answered 403 like
 * any ended session (issue 32.5). So a stolen token buys a few guesses and then stops working,
 * while the owner's other sessions, and a fresh sign-in, are never locked out by its guesses
 * (before, ten wrong passwords from any session refused the owner's right one for 15 minutes).
 */
export async function verifyCurrentPassword(
  session: { id: string; sessionId: string },
  password: string,
  detail: string,
): Promise<void> {
  const rule = PASSWORD_CHECK_PER_SESSION;
  const hit = await hitRateLimit(rule, session.sessionId);
  // Past the limit: sent at the same time as the guess that ended the session. No argon2 work.
  if (hit.limited) await endSessionAndRefuse(session.sessionId);
  const user = await db.user.findUniqueOrThrow({
    where: { id: session.id },
    select: { passwordHash: true },
  });
  if (!(await verifyPassword(user.passwordHash, password))) {
    if (hit.count >= rule.limit) await endSessionAndRefuse(session.sessionId);
    throw new ApiError(400, detail);
  }
  await refundRateLimit(rule, session.sessionId);
}

async function endSessionAndRefuse(sessionId: string): Promise<never> {
  await endSession(sessionId);
  throw new ApiError(403, SESSION_EXPIRED);
}
