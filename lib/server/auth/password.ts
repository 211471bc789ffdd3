import "server-only";
import os from "node:os";
import argon2 from "argon2";
import { createLimiter } from "@/lib/server/concurrency";

// OWASP's minimum for argon2id is m=19 MiB, t=2, p=1; we use a little more memory.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2 runs in libuv's thread pool, four threads by default. Unbounded, a burst of sign-ins
 * takes every core and every other request waits behind it. At most one hash fewer than the
 * cores runs at once (one on a 2-core box), so a core is always left for everything else; the
 * rest queue in order. Sign-ins are rate-limited per user and per address, so the queue is short.
 */
export const ARGON2_CONCURRENCY = Math.max(1, os.availableParallelism() - 1);
const limited = createLimiter(ARGON2_CONCURRENCY);

export function hashPassword(password: string): Promise<string> {
  return limited(() => argon2.hash(password, OPTIONS));
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await limited(() => argon2.verify(hash, password));
  } catch {
    return false;
  }
}
