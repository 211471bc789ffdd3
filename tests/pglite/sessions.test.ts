// Issue 12.1 and 13.2 on the zero-setup path (embedded PGlite, generated secret): the same
// sequences as tests/api/sessions.test.ts, and the fast path's session check run on PGlite.
import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { TREE_GENERATIONS_FOR_SESSION_SQL } from "@/lib/server/sql/reads";
import {
  changePasswordFromOneSession,
  expectCallerKeptOthersRevoked,
  expectOldResetLinkRefused,
  expectOldTokenRefused,
  expectResetRevokesAll,
  reregisterUsername,
} from "../helpers/sessions";

/** The rows the fast path's session-checked read gives a token for a tree (one statement). */
async function checkedRead(treeId: string, token: string): Promise<number> {
  const { username, sid, aid } = decodeJwt(token);
  const rows = await db.$queryRawUnsafe<unknown[]>(
    TREE_GENERATIONS_FOR_SESSION_SQL,
    treeId,
    username,
    sid,
    aid,
  );
  return rows.length;
}

describe("sessions on embedded PGlite", () => {
  it("refuses a deleted account's token, after someone registers the username again too", async () => {
    const reused = await reregisterUsername();
    expect(reused.afterDeletion).toBe(403);
    await expectOldTokenRefused(reused);
    expect(await checkedRead(reused.treeId, reused.newToken)).toBe(1);
    expect(await checkedRead(reused.treeId, reused.oldToken)).toBe(0);
  });

  it("refuses the first owner's reset link for the second owner", async () => {
    await expectOldResetLinkRefused();
  });

  it("keeps the session that changed the password, revokes the others, and a reset revokes all", async () => {
    const change = await changePasswordFromOneSession();
    await expectCallerKeptOthersRevoked(change);
    await expectResetRevokesAll(change);
  });
});
