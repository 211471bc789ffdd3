// The worker pool (ADR 021): each task it runs answers what the same function answers on the
// request thread, and a task over its time or memory limit, or one more than the queue holds,
// becomes an ApiError with a clear sentence while the pool goes on working.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeHeirloomZip } from "@/lib/export/heirloom-zip";
import { writeGedcom } from "@/lib/gedcom/export";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { ApiError } from "@/lib/server/http/errors";
import { prepareImport, type PreparedImport } from "@/lib/server/import/prepare-import";
import { drawOgCard } from "@/lib/server/published/og-image";
import { genealogyGedcom } from "@/tests/reliability/support/big-gedcom";
import { FIXTURE_ZIP } from "@/tests/fixtures/plumtree/build";
import { TASK_SECONDS, WORKER_LIMITS } from "./limits";
import { WorkerPool, WORKERS_BUSY, type WorkerPoolOptions } from "./pool";
import { meterWorkerTime } from "./worker-time";

const SAMPLE_GEDCOM = new Uint8Array(
  fs.readFileSync(path.join(import.meta.dirname, "../../../../shared/data/gedcom/sample.ged")),
);
const PLUMTREE_ZIP = new Uint8Array(fs.readFileSync(FIXTURE_ZIP));

/** A thread's first task loads tsx and the task modules: long on the shared, loaded machine. */
const SLOW = 300_000;

const pools: WorkerPool[] = [];
function pool(options: Partial<WorkerPoolOptions> = {}): WorkerPool {
  const made = new WorkerPool({
    threads: 1,
    heapMb: WORKER_LIMITS.heapMb,
    queue: WORKER_LIMITS.queue,
    seconds: TASK_SECONDS,
    ...options,
  });
  pools.push(made);
  return made;
}
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
}, 60_000);

/** A prepared import with its random ids and clock numbered in order of appearance. */
function canonical(prepared: PreparedImport): string {
  const ids = new Map<string, string>();
  const text = JSON.stringify({ ...prepared, images: [...prepared.images] }, (_key, value) =>
    value instanceof Uint8Array ? Buffer.from(value).toString("base64") : (value as unknown),
  );
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
      if (!ids.has(id)) ids.set(id, `id${ids.size}`);
      return ids.get(id)!;
    })
    .replace(/\\"createdAt\\":\\"[^"\\]+\\"/g, '\\"createdAt\\":\\"T\\"');
}

/** The tree and people an export reads, made from a prepared import. */
function exportInput(prepared: PreparedImport): { tree: string; people: string } {
  const tree: Tree = {
    _id: prepared.treeId,
    title: prepared.title,
    description: prepared.description,
    cover: null,
    data: JSON.parse(prepared.dataJson) as Tree["data"],
    version: 1,
  };
  const people: Person[] = prepared.peopleBatches.flatMap((batch) =>
    (
      JSON.parse(batch) as (Omit<Person, "_id" | "tree" | "avatar" | "links"> & {
        id: string;
        treeId: string;
      })[]
    ).map(({ id, treeId, firstName, lastName, bio, traits, aspirations, lifeStates, custom }) => ({
      _id: id,
      tree: treeId,
      avatar: null,
      firstName,
      lastName,
      bio,
      traits,
      aspirations,
      lifeStates,
      custom,
      links: [],
    })),
  );
  return { tree: JSON.stringify(tree), people: JSON.stringify(people) };
}

async function failure(work: Promise<unknown>): Promise<{ status: number; detail: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error("the task succeeded");
}

describe("the worker pool", () => {
  it(
    "imports a GEDCOM file and a Plum Tree backup as the request thread would",
    async () => {
      const workers = pool();
      for (const bytes of [SAMPLE_GEDCOM, PLUMTREE_ZIP]) {
        const inThread = await prepareImport({ source: { bytes } });
        const inWorker = await workers.run("import", { source: { bytes } });
        expect(inWorker.people).toBeGreaterThan(0);
        expect(canonical(inWorker)).toBe(canonical(inThread));
      }
    },
    SLOW,
  );

  it(
    "reads an upload from its file, as the route hands it over",
    async () => {
      const file = path.join(fs.mkdtempSync("/tmp/heirloom-pool-"), "upload");
      fs.writeFileSync(file, PLUMTREE_ZIP);
      const fromFile = await pool().run("import", { source: { path: file } });
      const fromBytes = await prepareImport({ source: { bytes: PLUMTREE_ZIP } });
      expect(canonical(fromFile)).toBe(canonical(fromBytes));
      fs.rmSync(path.dirname(file), { recursive: true });
    },
    SLOW,
  );

  it(
    "writes the backup ZIP and the GEDCOM export as the request thread would",
    async () => {
      const workers = pool();
      const input = exportInput(await prepareImport({ source: { bytes: SAMPLE_GEDCOM } }));
      const exportedAt = "2026-01-02T03:04:05.000Z";
      const images = new Map([["avatar/a.png", new Uint8Array([1, 2, 3])]]);
      const zip = await workers.run("exportZip", { ...input, images, exportedAt });
      expect(Buffer.from(zip)).toEqual(
        Buffer.from(
          writeHeirloomZip({
            tree: JSON.parse(input.tree) as Tree,
            people: JSON.parse(input.people) as Person[],
            images,
            exportedAt: new Date(exportedAt),
          }),
        ),
      );
      const gedcom = await workers.run("exportGedcom", input);
      expect(new TextDecoder().decode(gedcom)).toBe(
        writeGedcom({
          tree: JSON.parse(input.tree) as Tree,
          people: JSON.parse(input.people) as Person[],
        }),
      );
    },
    SLOW,
  );

  it(
    "charges each task's time on its thread to the meter that asked, however short the task",
    async () => {
      const EMPTY_STRUCTURE = JSON.stringify({
        person: null,
        partners: [],
        children: [],
        parentType: "NONE",
        parents: [],
        adoptiveParents: [],
        hidden: false,
      });
      const workers = pool();
      await workers.run("exportGedcom", { tree: "{}", people: "[]" }).catch(() => undefined);
      // a task this short answers before its "started" message is read, now and then (CI, once):
      // the time the thread measured travels with the answer
      const charged: number[] = [];
      for (let i = 0; i < 40; i++) {
        await meterWorkerTime(
          () => workers.run("heirs", { text: EMPTY_STRUCTURE, heirs: [] }),
          async (ms) => {
            charged.push(ms);
          },
        );
      }
      expect(charged).toHaveLength(40);
      expect(charged.filter((ms) => !(ms > 0))).toEqual([]);
      // nothing is charged outside a meter, and a meter sees only its own tasks
      let outer = -1;
      await meterWorkerTime(
        async () => {
          await meterWorkerTime(
            () => workers.run("heirs", { text: EMPTY_STRUCTURE, heirs: [] }),
            async () => undefined,
          );
        },
        async (ms) => {
          outer = ms;
        },
      );
      expect(outer).toBe(0);
    },
    SLOW,
  );

  it(
    "draws the Open Graph card as the request thread would",
    async () => {
      const card = { title: "The Pleasant Legacy", coverDataUri: null, sims: 42 };
      const png = await pool().run("ogImage", card);
      expect(Buffer.from(png).subarray(1, 4).toString()).toBe("PNG");
      expect(Buffer.from(png)).toEqual(Buffer.from(await drawOgCard(card)));
    },
    SLOW,
  );

  it(
    "ends an import over its time limit with a 422, and the next task runs",
    async () => {
      const workers = pool({ seconds: { ...TASK_SECONDS, import: 0.5 } });
      const big = genealogyGedcom(20_000);
      expect(await failure(workers.run("import", { source: { bytes: big } }))).toEqual({
        status: 422,
        detail: "This file takes too long to read: an import may use at most 0.5 seconds of work.",
      });
      const after = await workers.run("ogImage", { title: "After", coverDataUri: null, sims: 1 });
      expect(after.length).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    "ends an import over its memory limit with a 413, and the next task runs",
    async () => {
      const workers = pool({ heapMb: 128 });
      const big = genealogyGedcom(60_000, 20);
      expect(await failure(workers.run("import", { source: { bytes: big } }))).toEqual({
        status: 413,
        detail: "This file needs more memory to read than an import may use (128 MB).",
      });
      const small = await workers.run("import", { source: { bytes: SAMPLE_GEDCOM } });
      expect(small.people).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    "ends an export over its time or memory limit with a 503 that says so",
    async () => {
      const input = exportInput(await prepareImport({ source: { bytes: genealogyGedcom(5_000) } }));
      const slow = pool({ seconds: { ...TASK_SECONDS, export: 0.05 } });
      expect(await failure(slow.run("exportGedcom", input))).toEqual({
        status: 503,
        detail:
          "This tree is too large to export: the export needed more than 0.05 seconds of work.",
      });
      // Refused before it is sent: a JSON.parse past the heap cap would abort the whole process.
      const small = pool({ heapMb: 128 });
      const people = JSON.parse(input.people) as unknown[];
      const huge = { tree: input.tree, people: JSON.stringify(Array(12).fill(people).flat()) };
      expect(huge.people.length * 4).toBeGreaterThan(128 * 1024 * 1024);
      expect(await failure(small.run("exportGedcom", huge))).toEqual({
        status: 503,
        detail: "This tree is too large to export: the export needed more than 128 MB of memory.",
      });
    },
    SLOW,
  );

  it(
    "answers 503 with Retry-After when more tasks wait than the queue holds",
    async () => {
      const workers = pool({ queue: 1 });
      const bytes = genealogyGedcom(5_000);
      const runs = [1, 2, 3].map(() => workers.run("import", { source: { bytes } }));
      const settled = await Promise.allSettled(runs);
      const refused = settled.filter((s) => s.status === "rejected");
      expect(refused).toHaveLength(1);
      const reason = (refused[0] as PromiseRejectedResult).reason as ApiError;
      expect([reason.status, reason.detail, reason.headers]).toEqual([
        503,
        WORKERS_BUSY,
        { "Retry-After": "30" },
      ]);
    },
    SLOW,
  );
});
