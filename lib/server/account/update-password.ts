import "server-only";
import type { UpdatePasswordBody } from "@/lib/schemas/account";
import { hashPassword } from "@/lib/server/auth/password";
import { reissueSession } from "@/lib/server/auth/session";
import { db } from "@/lib/server/db";
import { verifyCurrentPassword } from "./verify-current-password";

/**
 * Changes the password after checking the current one. Every other session of the account is
 * revoked (a stolen token stops working); the calling session stays, so the token that made the
 * call keeps working (issue 13.2: the original client keeps it). The answer carries a fresh token
 * for the same session, which a client may use instead. Outstanding reset links are voided too.
 */
export async function updatePassword(
  session: { id: string; accountId: string; sessionId: string },
  { oldPassword, newPassword }: UpdatePasswordBody,
): Promise<{ token: string }> {
  const username = session.id;
  await verifyCurrentPassword(session, oldPassword, "Your current password is incorrect");
  const passwordHash = await hashPassword(newPassword);
  await db.$transaction([
    db.passwordResetToken.updateMany({
      where: { userId: username, usedAt: null },
      data: { usedAt: new Date() },
    }),
    db.session.deleteMany({ where: { userId: username, id: { not: session.sessionId } } }),
    db.user.update({ where: { id: username }, data: { passwordHash }, select: { id: true } }),
  ]);
  return { token: await reissueSession(session) };
}
