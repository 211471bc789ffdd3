/**
 * `npx tsx bench/editor/first-load.ts` (part of `npm run bench:editor`'s figures, issue 23): the
 * bytes and time of the editor's first load of a 10,000-Sim legacy, in one run against one server.
 * Before (the issue's): GET /api/trees/{id} (references with names) and GET /api/people?tree={id}
 * (every person whole), the original client's reads, which still answer the same. ADR 032: GET
 * /api/trees/{id} and GET /api/people?tree={id}&fields=canvas. After (ADR 038): GET
 * /api/trees/{id}?fields=canvas alone, the tree with its canvas people and references by
 * position. They are alternated LOADS times, each with gzip (what a browser gets) from the front's
 * cache, without gzip (never cached), and with gzip after a rename (fresh, as after an edit);
 * figures are medians. Writes bench/results/editor-first-load.json.
 *
 * The server: BENCH_BASE_URL if given, else the e2e server on E2E_PORT (default 3304) if it
 * answers, else one started there (bench/support/chromium.ts).
 */
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Person } from "@/lib/schemas/person";
import { JSON_PATCH_TYPE, type Tree } from "@/lib/schemas/tree";
import { type CanvasTree, fromCanvasTree } from "@/components/tree-editor/canvas-tree";
import { mapPersonRefs } from "@/lib/tree/reducers";
import { generateLegacy } from "./generate";
import { call, ensureServer, seed, setSeedBase, signUp } from "./seed";
import { median, positiveInt, round } from "./stats";

const SIMS = positiveInt(process.env.BENCH_FIRST_LOAD_SIMS, 10_000, "BENCH_FIRST_LOAD_SIMS");
const LOADS = positiveInt(process.env.BENCH_EDITOR_LOADS, 9, "BENCH_EDITOR_LOADS");
const port = Number(process.env.E2E_PORT ?? 3304);
const baseURL = process.env.BENCH_BASE_URL ?? `http://127.0.0.1:${port}`;
const root = path.resolve(import.meta.dirname, "../..");
setSeedBase(baseURL);

/**
 * gzip: as a browser reads (the front keeps each answer gzipped until the tree or its people
 * change); identity: uncompressed, never from that cache (the after read is answered from the
 * parts of the tree and its people the front keeps, canvas-read.ts); gzip fresh: gzip, each load after a
 * rename of one Sim, as the first load after an edit of a Sim; gzip after a save: each load after
 * a structure save (a JSON Patch of the root's `hidden`), as the first load after an editing
 * session; gzip cold: each load after a whole structure save (every chunk written anew) and a
 * rename, so that nothing the front keeps of the tree or its people is current, as after a
 * restart.
 */
const MODES = ["gzip", "identity", "gzip fresh", "gzip after a save", "gzip cold"] as const;

/** A person's editable fields, for a PUT that changes only what the caller overrides. */
const fieldsOf = ({
  firstName,
  lastName,
  bio,
  traits,
  aspirations,
  lifeStates,
  custom,
}: Person) => ({
  firstName,
  lastName,
  bio,
  traits,
  aspirations,
  lifeStates,
  custom,
});

/** One GET, read to the end: wire bytes (as sent, compressed or not) and milliseconds. */
function get(url: string, token: string, gzip: boolean): Promise<{ bytes: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${baseURL}${url}`,
      {
        headers: {
          authorization: `Bearer ${token}`,
          ...(gzip ? { "accept-encoding": "gzip" } : {}),
        },
        agent: false,
      },
      (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () => {
          if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
          else resolve({ bytes, ms: performance.now() - started });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

/** The editor's two requests in parallel, as it sends them: total bytes, time until both ended. */
async function load(urls: string[], token: string, gzip: boolean) {
  const started = performance.now();
  const answers = await Promise.all(urls.map((url) => get(url, token, gzip)));
  return {
    bytes: answers.reduce((sum, answer) => sum + answer.bytes, 0),
    perRequest: answers.map((answer) => answer.bytes),
    ms: performance.now() - started,
  };
}

/**
 * The after answer, as the editor reads it (fromCanvasTree), holds the very structure and people
 * of the before answers: the same references, the same names, avatars and links.
 */
async function sameLoad(id: string, token: string) {
  const named = await call<Tree>("GET", `/api/trees/${id}`, undefined, token);
  const whole = await call<Person[]>("GET", `/api/people?tree=${id}`, undefined, token);
  const canvas = await call<CanvasTree>("GET", `/api/trees/${id}?fields=canvas`, undefined, token);
  const { tree, people } = fromCanvasTree(canvas);
  // (mapPersonRefs also writes both structures' keys in one order)
  const bare = mapPersonRefs(named.data, ({ _id }) => ({ _id }));
  const read = mapPersonRefs(tree.data, (ref) => ref);
  const drawn = (list: Person[]) =>
    list.map(({ _id, avatar, firstName, lastName, links }) => ({
      _id,
      avatar,
      firstName,
      lastName,
      links,
    }));
  const same =
    JSON.stringify({ ...named, data: bare }) === JSON.stringify({ ...tree, data: read }) &&
    JSON.stringify(drawn(whole)) === JSON.stringify(drawn(people));
  if (!same) throw new Error("GET /api/trees/{id}?fields=canvas does not hold the before answers");
}

async function main() {
  const server = await ensureServer(baseURL, port, "heirloom_bench_editor");
  try {
    const token = await signUp();
    const legacy = generateLegacy({ sims: SIMS, seed: 1 });
    console.log(`Seeding ${SIMS} Sims…`);
    const seeded = await seed(token, legacy, `First load ${SIMS}`);
    const id = seeded.treeId;
    const variants = {
      before: [`/api/trees/${id}`, `/api/people?tree=${id}`],
      adr032: [`/api/trees/${id}`, `/api/people?tree=${id}&fields=canvas`],
      after: [`/api/trees/${id}?fields=canvas`],
    } as const;
    await sameLoad(id, token);
    const sim = seeded.people[0]!;
    const rename = (firstName: string) =>
      call("PUT", `/api/people/${sim._id}`, { ...fieldsOf(sim), firstName }, token);
    let version = (await call<Tree>("GET", `/api/trees/${id}`, undefined, token)).version;
    let hidden = false;
    const saveStructure = async () => {
      hidden = !hidden;
      const saved = await call<{ version: number }>(
        "PATCH",
        `/api/trees/${id}`,
        [{ op: "replace", path: "/data/hidden", value: hidden }],
        token,
        { "content-type": JSON_PATCH_TYPE, "if-match": `"${version}"` },
      );
      version = saved.version;
    };
    const bare = mapPersonRefs(
      (await call<Tree>("GET", `/api/trees/${id}`, undefined, token)).data,
      ({ _id }) => ({ _id }),
    );
    const saveWhole = async () => {
      const saved = await call<{ version: number }>(
        "PATCH",
        `/api/trees/${id}`,
        { data: bare },
        token,
      );
      version = saved.version;
    };
    type Sample = Awaited<ReturnType<typeof load>>;
    const samples: Record<string, Sample[]> = {};
    // one warm-up of each, then alternated, so all see the same server and caches
    for (const gzip of [true, false]) {
      for (const urls of Object.values(variants)) await load([...urls], token, gzip);
    }
    // The floor: the after read of an empty tree (one request, its session checked by the same
    // small statement, a body of some 200 bytes from the front's cache), timed as the loads are:
    // what any read from the cache costs here, whatever the tree's size.
    const empty = await call<{ _id: string }>("POST", "/api/trees", { title: "Floor" }, token);
    const floorUrl = `/api/trees/${empty._id}?fields=canvas`;
    await get(floorUrl, token, true);
    const floor: number[] = [];
    for (let i = 0; i < LOADS; i += 1) floor.push((await get(floorUrl, token, true)).ms);
    // the fresh loads last: each one's rename would leave the others' cached answers stale
    for (const mode of MODES) {
      for (let i = 0; i < LOADS; i += 1) {
        const gzip = mode !== "identity";
        const names = Object.keys(variants) as (keyof typeof variants)[];
        const order = i % 2 === 0 ? names : names.toReversed();
        for (const name of order) {
          // a rename (untimed) makes every answer new: none is served from the front's cache
          if (mode === "gzip fresh") await rename(`Fresh ${i} ${name}`);
          // a structure save (untimed): the tree's every kept form is of an older generation
          if (mode === "gzip after a save") await saveStructure();
          // a whole save and a rename (untimed): nothing kept of the tree or its people is current
          if (mode === "gzip cold") {
            await saveWhole();
            await rename(`Cold ${i} ${name}`);
          }
          (samples[`${name} ${mode}`] ??= []).push(await load([...variants[name]], token, gzip));
        }
      }
    }
    const figures = Object.fromEntries(
      Object.entries(samples).map(([key, list]) => [
        key,
        {
          bytes: median(list.map((s) => s.bytes)),
          perRequestBytes: list[0]!.perRequest.map((_, at) =>
            median(list.map((s) => s.perRequest[at]!)),
          ),
          medianMs: round(median(list.map((s) => s.ms))),
          perRunMs: list.map((s) => round(s.ms)),
        },
      ]),
    );
    const ratio = (encoding: string, name = "after") => ({
      bytes: round(figures[`${name} ${encoding}`]!.bytes / figures[`before ${encoding}`]!.bytes, 3),
      time: round(
        figures[`${name} ${encoding}`]!.medianMs / figures[`before ${encoding}`]!.medianMs,
        3,
      ),
    });
    const result = {
      bench: "bench/editor/first-load.ts",
      description:
        "the editor's first load (its API reads, in parallel) of a legacy: before (the issue's: the tree with names in its references, whole people), adr032 (the same tree, fields=canvas people) and after (ADR 038: GET /api/trees/{id}?fields=canvas alone, its canvas people in it and references by position), alternated in one run against one server; modes: gzip (from the front's cache), identity (uncompressed: never from the body cache, from the parts of the tree and its people the front keeps for the after read), gzip fresh (each load after a rename of one Sim, so never cached), gzip after a save (each load after a structure save of the root: the tree's own row changed, its chunks and people not), gzip cold (each load after a whole structure save and a rename: nothing kept of the tree or its people is current); bytes as on the wire, time until every answer was read",
      when: new Date().toISOString(),
      machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((v) => round(v, 2)) },
      baseURL,
      sims: SIMS,
      loads: LOADS,
      goal: "after at most half of before, in bytes and in time",
      figures,
      floorMs: {
        request: "GET /api/trees/{id}?fields=canvas of an empty tree, gzip, from the front's cache",
        medianMs: round(median(floor)),
        perRunMs: floor.map((ms) => round(ms)),
      },
      afterOverBefore: Object.fromEntries(MODES.map((mode) => [mode, ratio(mode)])),
      adr032OverBefore: Object.fromEntries(MODES.map((mode) => [mode, ratio(mode, "adr032")])),
    };
    await fs.mkdir(path.join(root, "bench/results"), { recursive: true });
    await fs.writeFile(
      path.join(root, "bench/results/editor-first-load.json"),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    console.log(JSON.stringify({ figures, afterOverBefore: result.afterOverBefore }, null, 2));
  } finally {
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
  }
}

await main();
