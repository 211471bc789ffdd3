// #12 finding 3: 20 concurrent 150 MB import bodies took a server from 625 MB to 3.3 GB of
// resident memory, and it stayed there. Against a real production server (scripts/start.ts):
// bodies stream to files, the per-process limits refuse the excess with 503 before reading it,
// resident memory stays within 500 MB of idle and a second burst adds nothing, and no upload file
// is left behind.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { zipSync, type Zippable } from "fflate";
import { afterAll, beforeAll, expect, it } from "vitest";
import { readLockHolder } from "@/lib/server/data-lock";
import { IMPORT_RETRY_AFTER, IMPORTS_BUSY } from "@/lib/server/import/read-import-body";
import { FIXTURE_ZIP, readFixtureJson } from "../fixtures/plumtree/build";
import { AppServer, ensureBuild, removeTempDirs, tempDir } from "../reliability/support/server";

const PORT = Number(process.env.OPS_TEST_PORT ?? 3421) + 2;
const MB = 1024 * 1024;
const CONCURRENT = 20;
const dataDir = tempDir("import-memory");
const server = new AppServer({ port: PORT, dataDir });
let token = "";
let serverPid = 0;

/** Resident memory of the server process, in MB. */
function rss(): number {
  const status = fs.readFileSync(`/proc/${serverPid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}
/**
 * Resets the server's peak resident memory (VmHWM) to its current figure (Linux: clear_refs 5),
 * so that VmHWM afterwards is the true peak, which sampling from a busy test process can miss.
 */
function resetPeak(): boolean {
  try {
    fs.writeFileSync(`/proc/${serverPid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}
const peakRss = () =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${serverPid}/status`, "utf8"))![1]) /
  1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const uploadsLeft = () => {
  const dir = path.join(dataDir, "tmp", "imports");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

/**
 * A 150 MB Plum Tree backup whose 18 avatars and cover are 8 MB of noise each: the importer reads
 * every one of them out of the archive (and then skips them as not images), the most an import
 * of this size can make the server hold.
 */
function hostileBackup(): Uint8Array {
  const tree = readFixtureJson("tree.json") as Record<string, unknown>;
  const people = readFixtureJson("people.json") as Record<string, unknown>[];
  for (let i = 0; i < 10; i++) {
    people.push({ ...people[0], _id: `extra-${i}`, firstName: `Extra ${i}`, links: [] });
  }
  const noise = randomBytes(8 * MB);
  const files: Zippable = {};
  people.forEach((person, i) => {
    person.avatar = `avatar/noise-${i}.png`;
    files[`images/avatar/noise-${i}.png`] = [noise, { level: 0 }];
  });
  tree.cover = "cover/noise.jpg";
  files["images/cover/noise.jpg"] = [noise, { level: 0 }];
  files["data/tree.js"] = new TextEncoder().encode(`var tree=${JSON.stringify(tree)};`);
  files["data/people.js"] = new TextEncoder().encode(`var people=${JSON.stringify(people)};`);
  const size = 18 * 8 * MB;
  files["padding.bin"] = [randomBytes(150 * MB - size - MB), { level: 0 }];
  return zipSync(files);
}

/**
 * Sends an import as a browser would: the answer is read as soon as it comes, and a body the
 * server refused before reading it is not sent on (fetch would send all 150 MB first).
 */
function sendImport(
  body: Buffer,
): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.url}/api/trees/import`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/zip",
        "content-length": body.length,
      },
    });
    let answered = false;
    request.on("response", (response) => {
      answered = true;
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => {
        request.destroy();
        const retryAfter = response.headers["retry-after"];
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: typeof retryAfter === "string" ? retryAfter : null,
          body: JSON.parse(text) as unknown,
        });
      });
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const write = (at: number) => {
      for (let next = at; next < body.length && !answered; next += MB) {
        if (!request.write(body.subarray(next, next + MB))) {
          request.once("drain", () => write(next + MB));
          return;
        }
      }
      if (!answered) request.end();
    };
    write(0);
  });
}

const postImport = (body: BodyInit, signal?: AbortSignal) =>
  fetch(`${server.url}/api/trees/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/zip" },
    body,
    signal,
    duplex: "half",
  } as RequestInit);

beforeAll(async () => {
  ensureBuild();
  await server.start();
  serverPid = readLockHolder(path.join(dataDir, "pglite"))!.pid;
  const signup = await fetch(`${server.url}/api/account/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      username: "importer",
      email: "i@example.com",
      password: "long enough pw",
    }),
  });
  token = ((await signup.json()) as { token: string }).token;
}, 900_000);

afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

it(`${CONCURRENT} concurrent 150 MB imports keep resident memory within 500 MB of idle`, async () => {
  // Warm up (the importer's modules, sharp, the first transaction), then take the idle figure.
  expect((await postImport(fs.readFileSync(FIXTURE_ZIP))).status).toBe(201);
  await sleep(2_000);
  const idleSamples: number[] = [];
  for (let i = 0; i < 5; i++, await sleep(200)) idleSamples.push(rss());
  const idle = median(idleSamples);

  const body = Buffer.from(hostileBackup());
  expect(body.length).toBeGreaterThan(149 * MB);
  let peak = idle;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, rss());
      await sleep(50);
    }
  })();

  const measuresPeak = resetPeak();
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => sendImport(body)));
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  if (measuresPeak) peak = Math.max(peak, peakRss());

  await sleep(5_000);
  const afterSamples: number[] = [];
  for (let i = 0; i < 5; i++, await sleep(200)) afterSamples.push(rss());
  const after = median(afterSamples);
  console.info(
    `import memory: idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (+${(peak - idle).toFixed(0)}), ` +
      `after ${after.toFixed(0)} MB (+${(after - idle).toFixed(0)}); ${CONCURRENT} imports of ` +
      `${(body.length / MB).toFixed(0)} MB in ${seconds.toFixed(1)} s: ` +
      `${answers.filter((a) => a.status === 201).length} imported, ${answers.filter((a) => a.status === 503).length} refused with 503`,
  );

  // Those admitted were imported; the rest were told to come back, before their body was read.
  const imported = answers.filter((a) => a.status === 201);
  const refused = answers.filter((a) => a.status !== 201);
  expect(imported.length).toBeGreaterThan(0);
  expect(refused.length).toBeGreaterThan(0);
  for (const refusal of refused) {
    expect(refusal).toEqual({
      status: 503,
      retryAfter: String(IMPORT_RETRY_AFTER),
      body: { errors: [{ detail: IMPORTS_BUSY }] },
    });
  }
  expect(peak - idle).toBeLessThan(500);
  expect(after - idle).toBeLessThan(500);
  expect(uploadsLeft()).toEqual([]);

  // A second burst reuses what the first one took instead of adding to it: what stays after a
  // burst is a plateau (PGlite's WebAssembly memory never shrinks), not a leak that grows with
  // every burst as the body buffers did.
  await Promise.all(Array.from({ length: CONCURRENT }, () => sendImport(body)));
  await sleep(5_000);
  const againSamples: number[] = [];
  for (let i = 0; i < 5; i++, await sleep(200)) againSamples.push(rss());
  const again = median(againSamples);
  console.info(
    `import memory: after a second burst ${again.toFixed(0)} MB (+${(again - idle).toFixed(0)})`,
  );
  expect(again - idle).toBeLessThan(500);
  expect(again - after).toBeLessThan(100);
  expect(uploadsLeft()).toEqual([]);
}, 600_000);

it("removes the upload file and frees its place when the client hangs up mid-body", async () => {
  const hangUps = Array.from({ length: 3 }, async () => {
    const controller = new AbortController();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(stream) {
        if (sent >= 20 * MB) {
          controller.abort();
          return;
        }
        sent += MB;
        stream.enqueue(new Uint8Array(MB));
        await sleep(5);
      },
    });
    await postImport(body, controller.signal).catch(() => undefined);
  });
  await Promise.all(hangUps);
  for (let i = 0; i < 50 && uploadsLeft().length > 0; i++) await sleep(100);
  expect(uploadsLeft()).toEqual([]);
  // All three places are free again: a full round of imports is admitted.
  const answers = await Promise.all(
    Array.from({ length: 3 }, async () => (await postImport(fs.readFileSync(FIXTURE_ZIP))).status),
  );
  expect(answers).toEqual([201, 201, 201]);
}, 120_000);
