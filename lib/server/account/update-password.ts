import "server-only";
import type { UpdatePasswordBody } from "@/lib/schemas/account";
import { hashPassword } from "@/lib/server/auth/password";
import { signToken } from "@/lib/server/auth/token";
import { db } from "@/lib/server/db";
import { verifyCurrentPassword } from "./verify-current-password";

/**
 * Changes the password after checking the current one. It bumps sessionVersion, which revokes every
 * other session (a stolen token stops working), and answers a fresh token so the caller stays
 * logged in. Outstanding reset links are voided too.
 */
export async function updatePassword(
  username: string,
  { oldPassword, newPassword }: UpdatePasswordBody,
): Promise<{ token: string }> {
  await verifyCurrentPassword(username, oldPassword, "Your current password is incorrect");
  const passwordHash = await hashPassword(newPassword);
  const [, user] = await db.$transaction([
    db.passwordResetToken.updateMany({
      where: { userId: username, usedAt: null },
      data: { usedAt: new Date() },
    }),
    db.user.update({
      where: { id: username },
      data: { passwordHash, sessionVersion: { increment: 1 } },
      select: { id: true, sessionVersion: true },
    }),
  ]);
  return { token: await signToken({ username: user.id, sv: user.sessionVersion }) };
}
