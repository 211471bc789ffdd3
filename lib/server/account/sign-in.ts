import "server-only";
import { randomBytes } from "node:crypto";
import { hashPassword, verifyPassword } from "@/lib/server/auth/password";
import { createSession } from "@/lib/server/auth/session";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import {
  SIGNIN_KNOWN_ADDRESS,
  SIGNIN_PER_IP,
  SIGNIN_PER_USERNAME,
  SIGNIN_PER_USERNAME_AND_IP,
  enforceRateLimit,
  hitRateLimit,
  peekRateLimit,
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
 * work, so neither the answer nor its timing tells which usernames exist.
 *
 * Each attempt counts before the password is checked, against (ADR 012):
 * - the client address (every username);
 * - the username from this address: a low limit, which locks out only the guessing address;
 * - the username from every address: a high ceiling against spread-out guessing, which the
 *   addresses the account signed in from in the last 30 days are not held to (they still count
 *   towards it), so guessing from elsewhere cannot lock the owner out at home.
 * A correct password gives the username's attempts back, so only failures add up there.
 */
export async function signIn(
  { username, password }: { username: string; password: string },
  ip: string,
): Promise<{ token: string }> {
  const pair = `${username}\n${ip}`;
  await enforceRateLimit(SIGNIN_PER_IP, ip);
  await enforceRateLimit(SIGNIN_PER_USERNAME_AND_IP, pair);
  const known = (await peekRateLimit(SIGNIN_KNOWN_ADDRESS, pair)) > 0;
  if (known) await hitRateLimit(SIGNIN_PER_USERNAME, username);
  else await enforceRateLimit(SIGNIN_PER_USERNAME, username);
  const user = await db.user.findUnique({
    where: { id: username },
    select: { id: true, accountId: true, passwordHash: true },
  });
  const valid = await verifyPassword(user?.passwordHash ?? (await getDummyHash()), password);
  if (!user || !valid) throw new ApiError(400, "Incorrect username or password");
  await Promise.all([
    refundRateLimit(SIGNIN_PER_USERNAME_AND_IP, pair),
    refundRateLimit(SIGNIN_PER_USERNAME, username),
    known ? undefined : hitRateLimit(SIGNIN_KNOWN_ADDRESS, pair),
  ]);
  return { token: await createSession(user) };
}
