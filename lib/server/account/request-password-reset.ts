import "server-only";
import { getEnv } from "@/lib/env";
import { db } from "@/lib/server/db";
import { sendMail } from "@/lib/server/mail";
import {
  FORGOT_PASSWORD_PER_IP,
  FORGOT_PASSWORD_PER_USERNAME,
  enforceRateLimit,
} from "@/lib/server/rate-limit";
import { passwordResetEmail } from "./emails";
import { RESET_TOKEN_LIFETIME_MS, createResetToken, resetPasswordLink } from "./reset-token";

export const PASSWORD_RESET_REQUESTED =
  "If that account exists, we've emailed a link to reset its password.";

/**
 * Emails a one-time reset link to the account's address. The answer is the same whether or not
 * the account exists. Earlier links stay valid until they expire or one of them is used.
 */
export async function requestPasswordReset(
  { username }: { username: string },
  ip: string,
): Promise<{ message: string }> {
  await enforceRateLimit(FORGOT_PASSWORD_PER_IP, ip);
  await enforceRateLimit(FORGOT_PASSWORD_PER_USERNAME, username);
  const user = await db.user.findUnique({
    where: { id: username },
    select: { id: true, email: true },
  });
  if (user) {
    const { token, tokenHash } = createResetToken();
    const now = Date.now();
    await db.$transaction([
      db.passwordResetToken.deleteMany({
        where: { userId: user.id, expiresAt: { lte: new Date(now) } },
      }),
      db.passwordResetToken.create({
        data: { userId: user.id, tokenHash, expiresAt: new Date(now + RESET_TOKEN_LIFETIME_MS) },
      }),
    ]);
    const appUrl = getEnv().APP_URL;
    await sendMail(
      passwordResetEmail({
        to: user.email,
        username: user.id,
        link: resetPasswordLink(appUrl, user.id, token),
        appUrl,
      }),
    );
  }
  return { message: PASSWORD_RESET_REQUESTED };
}
