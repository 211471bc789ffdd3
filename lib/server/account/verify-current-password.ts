import "server-only";
import { verifyPassword } from "@/lib/server/auth/password";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import {
  PASSWORD_CHECK_PER_USERNAME,
  enforceRateLimit,
  refundRateLimit,
} from "@/lib/server/rate-limit";

/**
 * Throws 400 (never 403: the session itself is fine) unless `password` is the user's password.
 * Failures are rate-limited per user, so a stolen session token cannot be used to guess it.
 */
export async function verifyCurrentPassword(
  username: string,
  password: string,
  detail: string,
): Promise<void> {
  await enforceRateLimit(PASSWORD_CHECK_PER_USERNAME, username);
  const user = await db.user.findUniqueOrThrow({
    where: { id: username },
    select: { passwordHash: true },
  });
  if (!(await verifyPassword(user.passwordHash, password))) throw new ApiError(400, detail);
  await refundRateLimit(PASSWORD_CHECK_PER_USERNAME, username);
}
