import "server-only";
import { randomBytes } from "node:crypto";
import { getEnv } from "@/lib/env";
import { db } from "@/lib/server/db";
import { JWT_SECRET_SETTING as SETTING_KEY } from "./verify";

let cached: Promise<Uint8Array> | undefined;

/**
 * The HS256 signing key: JWT_SECRET when set, otherwise a random secret generated once and kept in
 * the database, so tokens survive restarts and every instance over the same database agrees.
 */
export function getJwtSecret(): Promise<Uint8Array> {
  cached ??= (async () => {
    const fromEnv = getEnv().JWT_SECRET;
    if (fromEnv) return new TextEncoder().encode(fromEnv);
    const candidate = randomBytes(48).toString("base64url");
    // Concurrent first starts race here; the insert that loses keeps the winner's value.
    await db.setting.upsert({
      where: { key: SETTING_KEY },
      create: { key: SETTING_KEY, value: candidate },
      update: {},
    });
    const stored = await db.setting.findUniqueOrThrow({ where: { key: SETTING_KEY } });
    return new TextEncoder().encode(stored.value);
  })().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
