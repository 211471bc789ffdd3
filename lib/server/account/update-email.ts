import "server-only";
import { EMAIL_CHANGE_NEEDS_PASSWORD, type UpdateEmailBody } from "@/lib/schemas/account";
import type { AuthUser } from "@/lib/server/auth/find-session-user";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { addMailJob, wakeMailSender } from "./mail-jobs";
import { toUserResponse } from "./serialize";
import { verifyCurrentPassword } from "./verify-current-password";

/** A session this young may change the email without the password (the original client's form has none). */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

export { EMAIL_CHANGE_NEEDS_PASSWORD };

/**
 * Changes the account's email address (already validated and lower-cased by the schema). A token
 * alone is not enough (issue 22.5): the call needs the current password, or a session signed in
 * within the last 10 minutes. Refusals are 400, never 403 (the session itself is fine). The old
 * address is told at once, with a link that puts it back and ends every session (mail-jobs.ts);
 * the notice is queued in the same transaction as the change, so no change goes untold.
 */
export async function updateEmail(
  session: Pick<AuthUser, "id" | "sessionId">,
  { email, password }: UpdateEmailBody,
): Promise<{ email: string; _id: string }> {
  const username = session.id;
  if (password !== undefined) {
    await verifyCurrentPassword(session, password, "Your password is incorrect");
  } else {
    const row = await db.session.findUnique({
      where: { id: session.sessionId },
      select: { createdAt: true },
    });
    if (!row || Date.now() - row.createdAt.getTime() > RECENT_SIGN_IN_MS) {
      throw new ApiError(400, EMAIL_CHANGE_NEEDS_PASSWORD);
    }
  }
  const { user, changed } = await db.$transaction(async (tx) => {
    // Locked, so two changes at once each tell the address they replaced.
    const [before] = await tx.$queryRaw<{ email: string }[]>`
      SELECT "email" FROM "User" WHERE "id" = ${username} FOR UPDATE`;
    if (!before) throw new ApiError(404, "Not found");
    const user = await tx.user.update({
      where: { id: username },
      data: { email },
      select: { id: true, email: true },
    });
    const changed = before.email !== email;
    if (changed) {
      await addMailJob(
        { kind: "email-changed", username, oldEmail: before.email, newEmail: email },
        tx,
      );
    }
    return { user, changed };
  });
  if (changed) wakeMailSender();
  return toUserResponse(user);
}
