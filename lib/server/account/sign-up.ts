import "server-only";
import type { SignupBody } from "@/lib/schemas/account";
import { SIGNUP_QUEUE_LIMIT, argon2Waiting, hashPassword } from "@/lib/server/auth/password";
import { createSession } from "@/lib/server/auth/session";
import { Prisma, db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { enforceRateLimit, signupRules } from "@/lib/server/rate-limit";

const usernameTaken = () => new ApiError(409, "That username is taken");

/**
 * Creates an account and signs it in. Usernames are case sensitive; emails may be shared.
 * Each attempt counts against the client address's hourly and daily limits before anything else;
 * the hash then waits in argon2's sign-up lane, behind every signed-up player's (issue 22.6).
 */
export async function signUp(
  { username, email, password }: SignupBody,
  ip: string,
): Promise<{ token: string }> {
  for (const rule of signupRules()) await enforceRateLimit(rule, ip);
  // Checked first so a taken name costs no argon2 hash; the unique key still settles races.
  const existing = await db.user.findUnique({ where: { id: username }, select: { id: true } });
  if (existing) throw usernameTaken();
  if (argon2Waiting("sign-up") >= SIGNUP_QUEUE_LIMIT) {
    throw new ApiError(
      503,
      "Many accounts are being created right now. Please try again in a minute.",
      { "retry-after": "60" },
    );
  }
  const passwordHash = await hashPassword(password, "sign-up");
  try {
    const user = await db.user.create({
      data: { id: username, email, passwordHash },
      select: { id: true, accountId: true },
    });
    return { token: await createSession(user) };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw usernameTaken();
    }
    throw error;
  }
}
