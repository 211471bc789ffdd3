import "server-only";
import { db } from "@/lib/server/db";
import { isStorable } from "@/lib/server/http/http";
import { SESSION_USER_SQL } from "@/lib/server/sql/reads";
import { verifyToken } from "./token";

export interface AuthUser {
  /** The username. */
  id: string;
  email: string;
  /** The account's random id (ADR 003). */
  accountId: string;
  /** The session the token belongs to. */
  sessionId: string;
}

/**
 * The user a bearer token speaks for, or null when the token is invalid or expired, or its
 * session was revoked. One statement: the session must exist and belong to the very account the
 * token names.
 */
export async function findSessionUser(token: string): Promise<AuthUser | null> {
  const claims = await verifyToken(token);
  // A signed username PostgreSQL cannot store (a NUL) names no one; querying it would be a 500.
  if (!claims || !isStorable(claims.username)) return null;
  const rows = await db.$queryRawUnsafe<AuthUser[]>(
    SESSION_USER_SQL,
    claims.sid,
    claims.username,
    claims.aid,
  );
  return rows[0] ?? null;
}
