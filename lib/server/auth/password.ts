import "server-only";
import os from "node:os";
import argon2 from "argon2";
import { createPriorityLimiter } from "./priority-limiter";

// OWASP's minimum for argon2id is m=19 MiB, t=2, p=1; we use a little more memory.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2 runs in libuv's thread pool, four threads by default. Unbounded, a burst of sign-ins
 * takes every core and every other request waits behind it. At most one hash fewer than the
 * cores runs at once (one on a 2-core box), so a core is always left for everything else.
 *
 * The rest wait in two lanes (issue 22.6: 300 sign-ups from one address took a real player's
 * sign-in from 0.03 s to 1.8 s). Everything a signed-up player waits on (sign-in, the password
 * checks of the settings, a reset) goes first; new accounts' hashes get the slots nobody else
 * wants, and only SIGNUP_QUEUE_LIMIT of them may wait at once.
 */
export const ARGON2_CONCURRENCY = Math.max(1, os.availableParallelism() - 1);
export type Argon2Lane = "player" | "sign-up";
const limiter = createPriorityLimiter<Argon2Lane>(ARGON2_CONCURRENCY, ["player", "sign-up"]);

/** Sign-up hashes that may wait for a slot; the next sign-up is told to come back (503). */
export const SIGNUP_QUEUE_LIMIT = 20;

/** How many hashes of the lane are waiting for a slot. */
export function argon2Waiting(lane: Argon2Lane): number {
  return limiter.waiting(lane);
}

export function hashPassword(password: string, lane: Argon2Lane = "player"): Promise<string> {
  return limiter.run(lane, () => argon2.hash(password, OPTIONS));
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await limiter.run("player", () => argon2.verify(hash, password));
  } catch {
    return false;
  }
}
