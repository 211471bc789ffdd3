import "server-only";
import { hashPassword } from "@/lib/server/auth/password";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { hashResetToken } from "./reset-token";

/**
 * Sets a new password from an emailed link. In one transaction it spends the token (so it works
 * once), voids the user's other outstanding links, saves the hash and deletes every session of the
 * account, which revokes every token issued before.
 */
export async function resetPassword({
  username,
  password,
  token,
}: {
  username: string;
  password: string;
  token: string;
}): Promise<{ message: string }> {
  const tokenHash = hashResetToken(token);
  const invalid = () => new ApiError(400, "This reset link is invalid or has expired");
  // A link that cannot work is refused before any argon2 work: this route has no rate limit, so
  // otherwise anyone could make the server hash (19 MiB, t=2) as fast as they can send requests.
  const live = await db.passwordResetToken.findFirst({
    where: { tokenHash, userId: username, usedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true },
  });
  if (!live) throw invalid();
  // Hashed before the transaction: argon2 is slow and must not hold a database transaction open.
  const passwordHash = await hashPassword(password);
  await db.$transaction(async (tx) => {
    const now = new Date();
    const spent = await tx.passwordResetToken.updateMany({
      where: { tokenHash, userId: username, usedAt: null, expiresAt: { gt: now } },
      data: { usedAt: now },
    });
    // Spent (or expired) by a concurrent request since the check above.
    if (spent.count !== 1) throw invalid();
    await tx.passwordResetToken.updateMany({
      where: { userId: username, usedAt: null },
      data: { usedAt: now },
    });
    await tx.session.deleteMany({ where: { userId: username } });
    await tx.user.update({ where: { id: username }, data: { passwordHash } });
  });
  return { message: "Password has been saved" };
}
