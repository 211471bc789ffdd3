// Issue 32's game-file findings, on each engine (tests/api and tests/pglite run this suite):
// finding 2 (one mother of 99,990 children held a worker 30-49 s), finding 6 (7.8 million
// steadies from a 99 KB file), finding 14 (multipart uploads refused as "not a Sims 4 save"), and
// the per-account budget of worker seconds.
import fs from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { hitRateLimit } from "@/lib/server/rate-limit";
import { importWorkRule } from "@/lib/server/import/worker-budget";
import {
  manyChildrenSave,
  manySteadiesSave,
  writeSave,
  type FixtureSave,
} from "@/lib/sims4/testing";
import { call, detailOf, type ApiResponse } from "./api";
import { createUser } from "./factories";

const SAVES = path.resolve("../shared/data/sims4");
const realSave = (name: string) => new Uint8Array(fs.readFileSync(path.join(SAVES, name)));

const post = (
  token: string,
  url: string,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
) =>
  call("POST", url, {
    token,
    rawBody: new Uint8Array(bytes),
    headers: { "content-type": "application/octet-stream", ...headers },
  });

/** A multipart/form-data upload as curl -F sends it: a text field, then the file part. */
function form(bytes: Uint8Array, fileName = "Slot_00000003.save"): FormData {
  const data = new FormData();
  data.append("note", "a field before the file");
  data.append("file", new Blob([new Uint8Array(bytes)]), fileName);
  return data;
}
const postForm = (
  token: string,
  url: string,
  body: FormData,
  headers: Record<string, string> = {},
) => call("POST", url, { token, rawBody: body, headers });

/** The answer, or "still running" once `seconds` have passed (a generous bound, not a timing). */
async function within<T>(seconds: number, answer: Promise<T>): Promise<T | "still running"> {
  const timer = new AbortController();
  try {
    return await Promise.race([
      answer,
      sleep(seconds * 1000, "still running" as const, { signal: timer.signal }),
    ]);
  } finally {
    timer.abort();
  }
}

const BASE = 2n ** 60n;
const HH = BASE + 77n;
const smallSave = (extra = 0): FixtureSave => ({
  activeHouseholdId: HH,
  households: [{ id: HH, name: "Suite" }],
  sims: Array.from({ length: 2 + extra }, (_, i) => ({
    id: BASE + 1n + BigInt(i),
    householdId: HH,
    firstName: `Sim ${i}`,
    lastName: "Suite",
    age: 32,
  })),
});

export function sims4HostileSuite(): void {
  describe("issue 32, finding 2: a save of one mother and 99,990 children", () => {
    it("is refused on every Sims 4 route with a 400 naming the Sims limit, long before the 30 s it took", async () => {
      const { token } = await createUser();
      const bytes = manyChildrenSave();
      for (const url of ["/api/trees/import/households", "/api/trees/import"]) {
        const answer = await within(20, post(token, url, bytes));
        expect(answer).not.toBe("still running");
        const response = answer as ApiResponse;
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          errors: [
            {
              detail:
                "The save holds more than 30,000 Sims: Heirloom reads at most 30,000 Sims per save.",
            },
          ],
        });
      }
    });

    it("a mother of 1,001 children is refused naming the children limit; of 1,000, listed", async () => {
      const { token } = await createUser();
      const over = await post(token, "/api/trees/import/households", manyChildrenSave(1_001));
      expect(over.status).toBe(400);
      expect(detailOf(over)).toBe(
        "A Sim in the save has more than 1,000 children: Heirloom reads at most 1,000 children per Sim.",
      );
      const at = await post(token, "/api/trees/import/households", manyChildrenSave(1_000));
      expect(at.status).toBe(200);
      expect(
        (at.body as { households: { members: number; family: number }[] }).households[0],
      ).toMatchObject({
        members: 1_001,
        family: 1_001,
      });
    });
  });

  describe("issue 32, finding 6: 7.8 million steadies of one Sim in a 99 KB file", () => {
    it("is refused with a 400 naming the per-Sim cap, on the list, the import and the sync", async () => {
      const { token } = await createUser();
      const bytes = manySteadiesSave();
      expect(bytes.length).toBeLessThan(120_000);
      const imported = await post(token, "/api/trees/import", writeSave(smallSave()));
      expect(imported.status).toBe(201);
      const treeId = (imported.body as { tree: { _id: string } }).tree._id;
      for (const url of [
        "/api/trees/import/households",
        "/api/trees/import",
        `/api/trees/${treeId}/import`,
      ]) {
        const response = await post(token, url, bytes);
        expect(response.status).toBe(400);
        expect(detailOf(response)).toBe(
          "A Sim in the save has more than 100 steady partners: Heirloom reads at most 100 steady partners per Sim.",
        );
      }
    });
  });

  describe("issue 32, finding 14: multipart/form-data uploads", () => {
    it("lists, imports and syncs a real save sent as curl -F file=@Slot_00000003.save sends it", async () => {
      const { token } = await createUser();
      const bytes = realSave("ffrese-2024.save");
      const listed = await postForm(token, "/api/trees/import/households", form(bytes));
      expect(listed.status).toBe(200);
      const households = (listed.body as { households: { id: string; name: string }[] }).households;
      expect(households).toHaveLength(29);
      expect(households[0]!.name).toBe("Schuchardt");
      const imported = await postForm(token, "/api/trees/import", form(bytes));
      expect(imported.status).toBe(201);
      const tree = (imported.body as { tree: { _id: string; title: string } }).tree;
      expect(tree.title).toBe("Schuchardt");
      const synced = await postForm(token, `/api/trees/${tree._id}/import`, form(bytes));
      expect(synced.status).toBe(200);
      expect((synced.body as { changes: { added: unknown[] } }).changes.added).toEqual([]);
    });

    it("a form without a file, or cut short, is refused with what was expected", async () => {
      const { token } = await createUser();
      const noFile = new FormData();
      noFile.append("note", "no file here");
      const empty = await postForm(token, "/api/trees/import/households", noFile);
      expect(empty.status).toBe(400);
      expect(detailOf(empty)).toMatch(/form holds no file.*multipart\/form-data.*curl -F file=@/);
      const cut = await call("POST", "/api/trees/import", {
        token,
        rawBody:
          '--b\r\nContent-Disposition: form-data; name="file"; filename="a.save"\r\n\r\nDBPF and no end',
        headers: { "content-type": "multipart/form-data; boundary=b" },
      });
      expect(cut.status).toBe(400);
      expect(detailOf(cut)).toMatch(/damaged or incomplete.*as the request body/);
      const noBoundary = await call("POST", "/api/trees/import", {
        token,
        rawBody: "x",
        headers: { "content-type": "multipart/form-data" },
      });
      expect(noBoundary.status).toBe(400);
      expect(detailOf(noBoundary)).toMatch(/needs a boundary/);
    });
  });

  describe("issue 32: a budget of worker seconds per account", () => {
    it("charges each upload's worker time to its account, and refuses with 429 and Retry-After once spent", async () => {
      const user = await createUser();
      const rule = importWorkRule();
      const listed = await post(user.token, "/api/trees/import/households", writeSave(smallSave()));
      expect(listed.status).toBe(200);
      // the read took some worker time, and it was counted (a hit of 0 only reads the counter)
      const charged = await hitRateLimit(rule, user.username, 0);
      const other = await createUser();
      expect(charged.count).toBeGreaterThan(0);
      expect((await hitRateLimit(rule, other.username, 0)).count).toBe(0);
      // the rest of the hour's budget spent: every Sims 4 route refuses before reading the body
      await hitRateLimit(rule, user.username, rule.limit);
      for (const url of [
        "/api/trees/import/households",
        "/api/trees/import",
        "/api/trees/x/import",
      ]) {
        const refused = await post(user.token, url, writeSave(smallSave()));
        expect(refused.status).toBe(429);
        expect(detailOf(refused)).toMatch(/seconds of the server's time.*Please try again in/);
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      // another account is not affected
      expect(
        (await post(other.token, "/api/trees/import/households", writeSave(smallSave()))).status,
      ).toBe(200);
    });
  });
}
