import "server-only";
import type { RestoreEmailBody } from "@/lib/schemas/account";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { hashResetToken } from "./reset-token";

export const EMAIL_RESTORED =
  "Your email address has been restored and every session has been signed out";

/**
 * Undoes an email change from the link mailed to the old address (issue 22.5). In one
 * transaction it spends the link, puts its address back, voids outstanding password reset links
 * (a thief may have asked for one at the new address) and deletes every session of the account.
 *
 * It also voids the links of the same or later changes, which went to addresses set after this
 * one; links of earlier changes stay, so a thief who changed the address twice cannot void the
 * owner's link with the one mailed to the thief's first address.
 */
export async function restoreEmail({
  username,
  token,
}: RestoreEmailBody): Promise<{ message: string }> {
  const tokenHash = hashResetToken(token);
  const invalid = () => new ApiError(400, "This restore link is invalid or has expired");
  return db.$transaction(async (tx) => {
    const now = new Date();
    const link = await tx.emailRestoreToken.findFirst({
      where: { tokenHash, userId: username, usedAt: null, expiresAt: { gt: now } },
      select: { id: true, email: true, changedAt: true },
    });
    if (!link) throw invalid();
    const spent = await tx.emailRestoreToken.updateMany({
      where: { id: link.id, usedAt: null },
      data: { usedAt: now },
    });
    // Spent by a concurrent request since the read above.
    if (spent.count !== 1) throw invalid();
    await tx.emailRestoreToken.updateMany({
      where: { userId: username, usedAt: null, changedAt: { gte: link.changedAt } },
      data: { usedAt: now },
    });
    await tx.passwordResetToken.updateMany({
      where: { userId: username, usedAt: null },
      data: { usedAt: now },
    });
    await tx.session.deleteMany({ where: { userId: username } });
    await tx.user.update({ where: { id: username }, data: { email: link.email } });
    return { message: EMAIL_RESTORED };
  });
}
