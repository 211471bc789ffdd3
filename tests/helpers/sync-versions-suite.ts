// Issue 34, "an update you can undo", on both engines (tests/api/sync-versions.test.ts for
// PostgreSQL, tests/pglite/sync-versions.test.ts for the embedded default): every Sims 4 sync
// keeps the tree as it was (structure, people, heirs, with their ETags), listed by GET
// /api/trees/{id}/versions and brought back by POST .../versions/{versionId}/restore, which
// follows If-Match and is itself undoable; versions are bounded per tree.
import { beforeAll, describe, expect, it } from "vitest";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { type Session, tableRows, tablesInLoadOrder } from "@/lib/server/backup/database";
import { db } from "@/lib/server/db";
import {
  VERSIONS_KEPT,
  VERSIONS_MAX,
  keepVersion,
  listVersions,
} from "@/lib/server/trees/versions";
import { api, call, detailOf, postBytes } from "./api";
import { type TestUser, createUser } from "./factories";
import { FAMILY_HOUSEHOLD, familySave } from "./sims4-family";

const HH = FAMILY_HOUSEHOLD;

/** The Undo household; the newer save renames Cora and adds a baby. */
const save = (newer: boolean) =>
  familySave(newer, { name: "Undo", daughterAge: 8, renamedDaughter: "Corinna" });

interface SyncAnswer {
  tree: { _id: string; version: number };
  keptVersion: string | null;
  changes: { added: { _id: string; firstName: string }[] };
}
interface VersionsAnswer {
  versions: { _id: string; reason: string; etag: string; sims: number; createdAt: string }[];
}
interface RestoreAnswer {
  tree: { _id: string; version: number };
  keptVersion: string;
  restored: { _id: string; sims: number };
}

export function describeSyncVersions(engine: string): void {
  describe(
    `versions of a tree, kept by each sync, on ${engine} (issue 34)`,
    { timeout: 180_000 },
    () => {
      let owner: TestUser;
      beforeAll(async () => {
        owner = await createUser();
      });

      const upload = <T>(url: string, bytes: Uint8Array, headers: Record<string, string> = {}) =>
        postBytes<T>(owner.token, url, bytes, headers);
      const read = (treeId: string) =>
        api.get<Tree>(`/api/trees/${treeId}`, { token: owner.token });
      const peopleOf = async (treeId: string) =>
        (await api.get<Person[]>(`/api/people?tree=${treeId}`, { token: owner.token })).body
          .map((p) => `${p.firstName} ${p.lastName}`)
          .sort();
      const versionsOf = (treeId: string) =>
        api.get<VersionsAnswer>(`/api/trees/${treeId}/versions`, { token: owner.token });
      const restore = (treeId: string, versionId: string, etag?: string) =>
        call<RestoreAnswer>("POST", `/api/trees/${treeId}/versions/${versionId}/restore`, {
          token: owner.token,
          headers: etag ? { "if-match": etag } : {},
        });

      /** A tree imported from the older save, with Ada as the first generation's heir. */
      async function importedTree() {
        const imported = await upload<{ tree: { _id: string } }>(
          `/api/trees/import?household=${HH}`,
          save(false),
        );
        expect(imported.status, detailOf(imported)).toBe(201);
        const treeId = imported.body.tree._id;
        const ada = await db.person.findFirstOrThrow({
          where: { treeId, firstName: "Ada" },
          select: { id: true, version: true },
        });
        await db.tree.update({ where: { id: treeId }, data: { heirs: [ada.id] } });
        return { treeId, ada };
      }

      it("a sync keeps the tree as it was; restoring it brings back the structure, people and heirs, and the restore is undone in turn", async () => {
        const { treeId, ada } = await importedTree();
        const before = await read(treeId);
        const beforePeople = await peopleOf(treeId);
        expect(beforePeople).toEqual(["Ada Undo", "Bram Undo", "Cora Undo"]);
        expect((await versionsOf(treeId)).body.versions).toEqual([]);

        const synced = await upload<SyncAnswer>(`/api/trees/${treeId}/import`, save(true), {
          "if-match": before.headers.get("etag")!,
        });
        expect(synced.status, detailOf(synced)).toBe(200);
        expect(synced.body.keptVersion).toEqual(expect.any(String));
        // the player edits after the sync: the heir is unmarked, Ada's bio written
        await db.tree.update({ where: { id: treeId }, data: { heirs: [] } });
        await db.person.update({
          where: { id: ada.id },
          data: { bio: "<p>Written after the sync</p>", version: { increment: 1 } },
        });
        const after = await read(treeId);
        const afterPeople = await peopleOf(treeId);
        expect(afterPeople).toEqual(["Ada Undo", "Baby Undo", "Bram Undo", "Corinna Undo"]);

        const listed = await versionsOf(treeId);
        expect(listed.status).toBe(200);
        expect(listed.body.versions).toHaveLength(1);
        const [kept] = listed.body.versions;
        expect(kept).toMatchObject({
          _id: synced.body.keptVersion,
          reason: "sync",
          etag: before.headers.get("etag"),
          sims: 3,
        });

        // a stale If-Match is refused and changes nothing
        const stale = await restore(treeId, kept!._id, before.headers.get("etag")!);
        expect(stale.status).toBe(409);
        expect(stale.headers.get("etag")).toBe(after.headers.get("etag"));
        expect(await peopleOf(treeId)).toEqual(afterPeople);

        const restored = await restore(treeId, kept!._id, after.headers.get("etag")!);
        expect(restored.status, detailOf(restored)).toBe(200);
        expect(restored.body.restored).toEqual({ _id: kept!._id, sims: 3 });
        const now = await read(treeId);
        expect(now.headers.get("etag")).toBe(restored.headers.get("etag"));
        expect(now.body.data).toEqual(before.body.data);
        expect(await peopleOf(treeId)).toEqual(beforePeople);
        const stored = await db.tree.findUniqueOrThrow({ where: { id: treeId } });
        expect(stored.heirs).toEqual([ada.id]);
        // Ada's bio is as it was, and her version moved on: a PUT with her ETag from before fails
        const adaNow = await db.person.findUniqueOrThrow({ where: { id: ada.id } });
        expect(adaNow.bio).toBe("");
        expect(adaNow.version).toBeGreaterThan(ada.version + 1);
        const old = await api.put(
          `/api/people/${ada.id}`,
          { bio: "<p>Stale</p>" },
          { token: owner.token, headers: { "if-match": `"${ada.version + 1}"` } },
        );
        expect(old.status).toBe(409);

        // the restore kept the tree as it was before it: restoring that undoes the restore
        const versions = (await versionsOf(treeId)).body.versions;
        expect(versions.map((v) => v.reason)).toEqual(["restore", "sync"]);
        expect(versions[0]!._id).toBe(restored.body.keptVersion);
        expect(versions[0]!.sims).toBe(4);
        const undone = await restore(
          treeId,
          restored.body.keptVersion,
          restored.headers.get("etag")!,
        );
        expect(undone.status, detailOf(undone)).toBe(200);
        expect((await read(treeId)).body.data).toEqual(after.body.data);
        expect(await peopleOf(treeId)).toEqual(afterPeople);
        const adaAgain = await db.person.findUniqueOrThrow({ where: { id: ada.id } });
        expect(adaAgain.bio).toBe("<p>Written after the sync</p>");
      });

      it("a sync that changes nothing keeps no version", async () => {
        const { treeId } = await importedTree();
        const synced = await upload<SyncAnswer>(`/api/trees/${treeId}/import`, save(false));
        expect(synced.status, detailOf(synced)).toBe(200);
        expect(synced.body.keptVersion).toBeNull();
        expect((await versionsOf(treeId)).body.versions).toEqual([]);
      });

      it("is 404 for someone else's tree, another tree's version and an unknown version", async () => {
        const { treeId } = await importedTree();
        const synced = await upload<SyncAnswer>(`/api/trees/${treeId}/import`, save(true));
        expect(synced.status).toBe(200);
        const versionId = synced.body.keptVersion!;
        const other = await createUser();
        const theirs = await api.get(`/api/trees/${treeId}/versions`, { token: other.token });
        expect(theirs.status).toBe(404);
        const taken = await call("POST", `/api/trees/${treeId}/versions/${versionId}/restore`, {
          token: other.token,
        });
        expect(taken.status).toBe(404);
        const { treeId: second } = await importedTree();
        expect((await restore(second, versionId)).status).toBe(404);
        const unknown = await restore(treeId, "00000000-0000-4000-8000-000000000000");
        expect(unknown.status).toBe(404);
        expect(detailOf(unknown)).toBe("Version not found");
        const anonymous = await call("GET", `/api/trees/${treeId}/versions`);
        expect(anonymous.status).toBe(401);
      });

      it("goes into backups: the backup's tables take TreeVersion after Tree, with its rows", async () => {
        const { treeId } = await importedTree();
        const synced = await upload<SyncAnswer>(`/api/trees/${treeId}/import`, save(true));
        expect(synced.status).toBe(200);
        // the backup's own reads (lib/server/backup/database.ts), in one transaction of this database
        const { tables, rows } = await db.$transaction(async (tx) => {
          const session: Session = {
            query: <Row extends Record<string, unknown>>(text: string, values: unknown[] = []) =>
              tx.$queryRawUnsafe<Row[]>(text, ...values),
            exec: async (script: string) => {
              await tx.$executeRawUnsafe(script);
            },
          };
          const tables = await tablesInLoadOrder(session);
          const rows: string[] = [];
          for await (const row of tableRows(session, "TreeVersion")) rows.push(row);
          return { tables, rows };
        });
        expect(tables).toContain("TreeVersion");
        expect(tables.indexOf("TreeVersion")).toBeGreaterThan(tables.indexOf("Tree"));
        const kept = rows
          .map((row) => JSON.parse(row) as { id: string; treeId: string; people: unknown[] })
          .find((row) => row.id === synced.body.keptVersion);
        expect(kept?.treeId).toBe(treeId);
        expect(kept?.people).toHaveLength(3);
      });

      it(`keeps the newest ${VERSIONS_KEPT} and any younger than 30 days, never more than ${VERSIONS_MAX}`, async () => {
        const { treeId } = await importedTree();
        const keep = () => db.$transaction((tx) => keepVersion(tx, treeId, "sync"));
        for (let i = 0; i < VERSIONS_KEPT + 5; i += 1) await keep();
        // all of them 40 days old: the next keep drops those past the newest VERSIONS_KEPT
        await db.$executeRaw`
        UPDATE "TreeVersion" SET "createdAt" = "createdAt" - interval '40 days'
        WHERE "treeId" = ${treeId}`;
        await keep();
        expect(await db.treeVersion.count({ where: { treeId } })).toBe(VERSIONS_KEPT);
        // young ones are kept past VERSIONS_KEPT, up to VERSIONS_MAX
        for (let i = 0; i < VERSIONS_MAX + 3; i += 1) await keep();
        expect(await db.treeVersion.count({ where: { treeId } })).toBe(VERSIONS_MAX);
        const listed = await listVersions(
          (await db.tree.findUniqueOrThrow({ where: { id: treeId } })).ownerId,
          treeId,
        );
        expect(listed).toHaveLength(VERSIONS_MAX);
        // a deleted tree's versions go with it
        await db.tree.delete({ where: { id: treeId } });
        expect(await db.treeVersion.count({ where: { treeId } })).toBe(0);
      });
    },
  );
}
