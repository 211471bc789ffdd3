import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/server/db";
import { signToken, TOKEN_LIFETIME_SECONDS } from "./token";

const expiredBefore = () => new Date(Date.now() - TOKEN_LIFETIME_SECONDS * 1000);

/**
 * Opens a session for the account and answers its token. The account's sessions whose latest
 * token has expired are swept on the way, so the table holds only live sessions without a job.
 */
export async function createSession(account: { id: string; accountId: string }): Promise<string> {
  const sid = randomUUID();
  await db.$transaction([
    db.session.deleteMany({ where: { userId: account.id, issuedAt: { lt: expiredBefore() } } }),
    db.session.create({ data: { id: sid, userId: account.id } }),
  ]);
  return signToken({ username: account.id, aid: account.accountId, sid });
}

/**
 * Signs a fresh token for an existing session (its older tokens keep working until they expire)
 * and moves the session's sweep date along with it.
 */
export async function reissueSession(session: {
  id: string;
  accountId: string;
  sessionId: string;
}): Promise<string> {
  await db.session.update({ where: { id: session.sessionId }, data: { issuedAt: new Date() } });
  return signToken({ username: session.id, aid: session.accountId, sid: session.sessionId });
}

/** The spec's text for a 403: the session is invalid, expired or ended (route.ts authenticate). */
export const SESSION_EXPIRED = "You're session expired. Please login again.";

/** Ends one session: every token it signed answers 403 from the next request on. */
export async function endSession(sessionId: string): Promise<void> {
  await db.session.deleteMany({ where: { id: sessionId } });
}
