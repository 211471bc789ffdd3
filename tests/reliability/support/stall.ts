// Shared by tests/reliability/stall.test.ts and bench/stall: the heavy requests of issue 22
// (findings 1-4) against a running server, and a second client's GET /api/version beside them.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { createTree, request, signUp, type Answer } from "./client";

export const VERSION_PATH = "/api/version";

/** A heavy request may take minutes on the shared machine; a hang still ends, as a failure. */
export const HEAVY_TIMEOUT_MS = 900_000;

/**
 * Like `request` (support/client.ts), with raw bodies and HEAVY_TIMEOUT_MS, over node:http:
 * fetch gives up on a response whose headers take more than 300 s (undici's headersTimeout),
 * which a 100,000-Sim import can on the loaded, shared machine. The answer's text and body are
 * made when first read: this client shares its thread with the version client it times, and
 * decoding and parsing a 106 MB published tree as it arrived took that thread 2-6 s, which the
 * version client then reported as the server's stall.
 */
export function heavyRequest(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: string | Uint8Array; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined)
    headers["content-length"] = String(Buffer.byteLength(options.body));
  const started = performance.now();
  return new Promise((resolve) => {
    const failed = (failure: string) =>
      resolve({
        status: 0,
        body: undefined,
        text: "",
        headers: undefined,
        ms: performance.now() - started,
        failure,
      });
    const req = http.request(
      `${base}${path}`,
      { method, headers, timeout: HEAVY_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", (error) => failed(error.message));
        res.on("end", () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === "string") answerHeaders.set(name, value);
          }
          let text: string | undefined;
          let body: { value: unknown } | undefined;
          const textOf = () => (text ??= Buffer.concat(chunks).toString("utf8"));
          resolve({
            status: res.statusCode ?? 0,
            get text() {
              return textOf();
            },
            get body() {
              if (!body) {
                try {
                  body = { value: JSON.parse(textOf()) as unknown };
                } catch {
                  body = { value: undefined };
                }
              }
              return body.value;
            },
            headers: answerHeaders,
            ms: performance.now() - started,
          });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (error: NodeJS.ErrnoException) => failed(error.code ?? error.message));
    req.end(options.body);
  });
}

/** POST /api/trees/import with raw bytes. */
export const postImport = (base: string, token: string, bytes: Uint8Array) =>
  heavyRequest(base, "POST", "/api/trees/import?fileName=stall.ged", {
    token,
    body: bytes,
    headers: { "content-type": "application/octet-stream" },
  });

/**
 * Resolves once the server holds the whole upload of `size` bytes in `DATA_DIR/tmp/imports` (or
 * has taken the file away again after it was seen), or once `done()`: from then on the server is
 * reading the file, not the socket.
 */
export async function uploadReceived(dataDir: string, size: number, done: () => boolean) {
  const dir = path.join(dataDir, "tmp", "imports");
  let seen = false;
  while (!done()) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    const sizes = files.map((name) => {
      try {
        return fs.statSync(path.join(dir, name)).size;
      } catch {
        return -1;
      }
    });
    if (sizes.some((s) => s >= size)) return;
    if (sizes.some((s) => s > 0)) seen = true;
    else if (seen) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export interface Overlap {
  answer: Answer;
  /** Version requests (sent one after another) that completed before the heavy request did. */
  versionsBefore: number;
  /** Their round trips, in ms (for the bench). */
  versionMs: number[];
  /** A version request that failed (no answer, or not 200). */
  versionFailure?: string;
}

/**
 * Runs `heavy` and, once `ready` resolves, sends GET /api/version one after another until the heavy
 * request has its answer. Counts the version answers that came first: an ordering, not a timing.
 */
export async function alongside(
  base: string,
  heavy: () => Promise<Answer>,
  ready: (done: () => boolean) => Promise<void> = async () => undefined,
): Promise<Overlap> {
  let done = false;
  const running = heavy().then((answer) => {
    done = true;
    return answer;
  });
  await ready(() => done);
  let versionsBefore = 0;
  const versionMs: number[] = [];
  let versionFailure: string | undefined;
  while (!done) {
    const version = await request(base, "GET", VERSION_PATH);
    if (version.status !== 200) {
      versionFailure = `${version.status} ${version.failure ?? version.text.slice(0, 200)}`;
      break;
    }
    if (done) break;
    versionsBefore += 1;
    versionMs.push(version.ms);
  }
  return { answer: await running, versionsBefore, versionMs, versionFailure };
}

/** A player and the ETag of a new tree of theirs holding one Sim at its root. */
export async function treeWithOneSim(base: string, prefix: string, token?: string) {
  const owner = token ?? (await signUp(base, prefix));
  const tree = await createTree(base, owner, `${prefix} tree`);
  const person = await request<{ _id: string }>(base, "POST", "/api/people", {
    token: owner,
    body: { tree: tree._id, firstName: "Copy", lastName: "Cat" },
  });
  if (person.status !== 200 || !person.body) throw new Error(`POST /api/people: ${person.status}`);
  const read = await request(base, "GET", `/api/trees/${tree._id}`, { token: owner });
  return {
    token: owner,
    treeId: tree._id,
    personId: person.body._id,
    etag: read.headers?.get("etag") ?? "",
  };
}

export const JSON_PATCH = { "content-type": "application/json-patch+json" };

/**
 * Finding 1: `replace /data` with one node holding one Sim, 100 partner rows of 100 references
 * to them, 100 parents and 100 adoptive parents, then 8 × `copy /data → /data/children/-`
 * (about 500 KB; stored whole it was 256 nodes and 128 MB of JSONB).
 */
export function hugePatch(personId: string): unknown[] {
  const ref = { _id: personId };
  const node = {
    person: ref,
    partners: Array.from({ length: 100 }, () => ({
      type: "PARTNER",
      people: Array(100).fill(ref),
    })),
    children: [],
    parentType: "NONE",
    parents: Array(100).fill(ref),
    adoptiveParents: Array(100).fill(ref),
    hidden: false,
  };
  return [
    { op: "replace", path: "/data", value: node },
    ...Array.from({ length: 8 }, () => ({ op: "copy", from: "/data", path: "/data/children/-" })),
  ];
}

/** Finding 2: `copies` × `copy /data → /data/children/-`, doubling the tree each time (1 KB). */
export function doublingPatch(copies: number): unknown[] {
  return Array.from({ length: copies }, () => ({
    op: "copy",
    from: "/data",
    path: "/data/children/-",
  }));
}

/**
 * Finding 2 with copies that stay within the node limit: [copy, remove] `pairs` on a tree made by
 * `treeOfNodes`, whose last child of the root is its largest (half the tree). Each pair copies
 * that child and removes the copy, so the tree never grows: only the patch's work budget ends it.
 */
export function copyRemovePatch(pairs: number, tree: { largest: number }): unknown[] {
  return Array.from({ length: pairs }, () => [
    { op: "copy", from: `/data/children/${tree.largest}`, path: "/data/children/-" },
    { op: "remove", path: `/data/children/${tree.largest + 1}` },
  ]).flat();
}

/**
 * A player's tree of 2^`doublings` nodes (one Sim, placed at every node), made by one accepted
 * patch of `doublings` doubling copies, and its new ETag. With 15 it has 32,768 nodes, the shape
 * of the issue's [copy, remove] finding: the root's children hold 1, 2, 4, … nodes, and the last,
 * /data/children/14 (`largest`), holds 16,384.
 */
export async function treeOfNodes(base: string, prefix: string, doublings: number, token: string) {
  const tree = await treeWithOneSim(base, prefix, token);
  const grown = await heavyRequest(base, "PATCH", `/api/trees/${tree.treeId}`, {
    token,
    body: JSON.stringify(doublingPatch(doublings)),
    headers: { ...JSON_PATCH, "if-match": tree.etag },
  });
  if (grown.status !== 200) throw new Error(`growing the tree: ${grown.status} ${grown.text}`);
  const read = await request(base, "GET", `/api/trees/${tree.treeId}`, { token });
  return { ...tree, etag: read.headers?.get("etag") ?? "", largest: doublings - 1 };
}

/** The answers of a sustained attack: the last one, and every status seen. */
export interface Sustained {
  last: Answer;
  statuses: number[];
  requests: number;
}

/**
 * An attacker who repeats a request: `readers` loops at once, each sending `one()` again and again
 * until `forMs` has passed (each loop sends at least one). A request that is now bounded answers in
 * milliseconds, so a second client's version requests could not be shown to complete "while it
 * runs"; the threat is the attacker sending it over and over, and that is what runs here.
 */
export async function sustained(
  one: () => Promise<Answer>,
  { forMs, readers = 1 }: { forMs: number; readers?: number },
): Promise<Sustained> {
  const until = performance.now() + forMs;
  const statuses: number[] = [];
  let last: Answer | undefined;
  await Promise.all(
    Array.from({ length: readers }, async () => {
      do {
        last = await one();
        statuses.push(last.status);
      } while (performance.now() < until && last.status !== 0);
    }),
  );
  return { last: last!, statuses, requests: statuses.length };
}
