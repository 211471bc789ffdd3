import "server-only";
import { randomBytes } from "node:crypto";
import { hashPassword, verifyPassword } from "@/lib/server/auth/password";
import { createSession } from "@/lib/server/auth/session";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/errors";
import {
  SIGNIN_PER_IP,
  SIGNIN_PER_USERNAME,
  enforceRateLimit,
  refundRateLimit,
} from "@/lib/server/rate-limit";

let dummyHash: Promise<string> | undefined;

/** A hash of a random password with the real parameters, verified when the username is unknown. */
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString("base64url"));
  return dummyHash;
}

/**
 * Signs a user in. Unknown usernames and wrong passwords get the same 400 after the same argon2
 * work, so neither the answer nor its timing tells which usernames exist. Each attempt counts
 * against the client address and the username before the password is checked; a correct
 * password gives the username's attempt back, so only failures add up there.
 */
export async function signIn(
  { username, password }: { username: string; password: string },
  ip: string,
): Promise<{ token: string }> {
  await enforceRateLimit(SIGNIN_PER_IP, ip);
  await enforceRateLimit(SIGNIN_PER_USERNAME, username);
  const user = await db.user.findUnique({
    where: { id: username },
    select: { id: true, accountId: true, passwordHash: true },
  });
  const valid = await verifyPassword(user?.passwordHash ?? (await getDummyHash()), password);
  if (!user || !valid) throw new ApiError(400, "Incorrect username or password");
  await refundRateLimit(SIGNIN_PER_USERNAME, username);
  return { token: await createSession(user) };
}
