// Issue 12.1 (a deleted account's token came back to life for whoever registered the username
// next) and issue 13.2 (a password change logged out the session that made it), on PostgreSQL:
// through the route handlers and through the fast read path (lib/server/fast-reads.ts), cached
// bodies included. ADR 003.
import http from "node:http";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEnv } from "@/lib/env";
import { db } from "@/lib/server/db";
import { createFastReads } from "@/lib/server/front/fast-reads";
import { pgFrontDb } from "@/lib/server/front/front-db";
import { getPgPool } from "@/lib/server/front/pg-pool";
import { api, call } from "../helpers/api";
import { createUser, uploadImage } from "../helpers/factories";
import {
  changePasswordFromOneSession,
  expectCallerKeptOthersRevoked,
  expectOldResetLinkRefused,
  expectOldTokenRefused,
  expectResetRevokesAll,
  reregisterUsername,
  signIn,
} from "../helpers/sessions";
import { makePng } from "../helpers/upload-fixtures";

/** What the stand-in for Next answers: the fast path handed the request on. */
const HANDED_TO_NEXT = 599;

let server: http.Server;
let port: number;

beforeAll(async () => {
  const fast = createFastReads({
    db: pgFrontDb(getPgPool(getEnv().DATABASE_URL!)),
    jwtSecret: getEnv().JWT_SECRET,
    logger: pino({ level: "silent" }),
  });
  server = http.createServer((req, res) => {
    void fast(req, res).then((answered) => {
      if (answered) return;
      res.writeHead(HANDED_TO_NEXT);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The fast path's status for a GET with this token (gzip asked, so cached bodies are in play). */
function fastGet(path: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        headers: { authorization: `Bearer ${token}`, "accept-encoding": "gzip" },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("a deleted account's token (issue 12.1)", () => {
  it("is refused with 403 once the account is deleted, and after someone registers the username again", async () => {
    const reused = await reregisterUsername();
    expect(reused.afterDeletion).toBe(403);
    await expectOldTokenRefused(reused);
  });

  it("is refused by the fast read path too, cached body or not", async () => {
    const reused = await reregisterUsername();
    const paths = [`/api/trees/${reused.treeId}`, `/api/people?tree=${reused.treeId}`];
    for (const path of paths) {
      // The second owner reads first, so the gzipped body is in the fast path's cache.
      expect(await fastGet(path, reused.newToken)).toBe(200);
      expect(await fastGet(path, reused.newToken)).toBe(200);
      expect(await fastGet(path, reused.oldToken)).toBe(HANDED_TO_NEXT);
      // …and Next's route handler answers it 403.
      expect((await api.get(path, { token: reused.oldToken })).status).toBe(403);
    }
  });

  it("a reset link mailed to the first owner does not reset the second owner's password", async () => {
    await expectOldResetLinkRefused();
  });

  it("an upload URL issued to the first owner is not usable by the second", async () => {
    const first = await createUser();
    const url = (
      await api.get<{ filename: string; uploadURL: string }>(
        "/api/upload/url?type=image/png&dir=cover",
        { token: first.token },
      )
    ).body;
    await db.user.delete({ where: { id: first.username } });
    const second = await createUser({ username: first.username });
    // The URL's row went with the first account, and nothing can make it again: file names are
    // random, so the signature names a file no later account is ever issued.
    const target = new URL(url.uploadURL);
    const put = await call("PUT", target.pathname + target.search, {
      rawBody: new Uint8Array(await makePng(32, 32)),
      headers: { "content-type": "image/png" },
    });
    expect(put.status).toBe(404);
    expect(await db.upload.count({ where: { id: url.filename } })).toBe(0);
    const cover = await api.post(
      "/api/trees",
      { title: "Borrowed cover", description: "", cover: url.filename },
      { token: second.token },
    );
    expect(cover.status).toBe(400);
    // The second owner's own uploads work as usual.
    expect(await uploadImage(second.token, await makePng(32, 32), "cover")).toMatch(/^cover\//);
  });
});

describe("changing the password (issue 13.2)", () => {
  it("keeps the calling session and revokes every other one", async () => {
    const change = await changePasswordFromOneSession();
    await expectCallerKeptOthersRevoked(change);
  });

  it("keeps the calling session on the fast read path, and refuses the others there", async () => {
    const change = await changePasswordFromOneSession();
    const created = await api.post(
      "/api/trees",
      { title: "Still mine", description: "" },
      { token: change.caller },
    );
    expect(created.status).toBe(200);
    const path = `/api/trees/${(created.body as { _id: string })._id}`;
    expect(await fastGet(path, change.caller)).toBe(200);
    expect(await fastGet(path, change.answered)).toBe(200);
    expect(await fastGet(path, change.other)).toBe(HANDED_TO_NEXT);
  });

  it("signing in with the new password opens a new session beside the caller's", async () => {
    const change = await changePasswordFromOneSession();
    const fresh = await signIn(change.username, change.password);
    expect((await api.get("/api/user", { token: fresh })).status).toBe(200);
    expect((await api.get("/api/user", { token: change.caller })).status).toBe(200);
  });

  it("a password reset revokes every session", async () => {
    const change = await changePasswordFromOneSession();
    await expectResetRevokesAll(change);
  });
});
