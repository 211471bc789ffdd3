/**
 * Seeding the editor bench's trees through the API of a running app: a user, and a legacy (its
 * Sims, then its structure in one PATCH) or a generated GEDCOM genealogy imported as a new tree.
 * Shared by run.ts and trace.ts.
 */
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";
import { mapPersonRefs } from "@/lib/tree/reducers";
import { ensureServer as startApp } from "../support/chromium";
import { generateGenealogy } from "./gedcom";
import { legacyStats, type LegacyStats, type SyntheticLegacy } from "./generate";

let baseURL = "";

/**
 * The app to measure: `url` if it answers; else, unless BENCH_BASE_URL named it, the production
 * app started on `port` with a fresh `database` (bench/support/chromium.ts), which the caller stops.
 */
export const ensureServer = (url: string, port: number, database: string) =>
  startApp({ baseURL: url, port, database });

/** The app the seeding talks to. */
export function setSeedBase(url: string): void {
  baseURL = url;
}

/** Seeding sends 10,000 requests; a database restart by someone else's test should not end the run. */
const SEED_ATTEMPTS = 4;

export async function call<T>(
  method: string,
  url: string,
  body: unknown,
  token?: string,
  headers: Record<string, string> = {},
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await callOnce<T>(method, url, body, token, headers);
    } catch (error) {
      const transient = !(error instanceof HttpError) || error.status >= 500;
      if (!transient || attempt >= SEED_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
}

class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function callOnce<T>(
  method: string,
  url: string,
  body: unknown,
  token: string | undefined,
  headers: Record<string, string>,
): Promise<T> {
  const response = await fetch(`${baseURL}${url}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const detail = await response.text();
    throw new HttpError(`${method} ${url} → ${response.status} ${detail}`, response.status);
  }
  return (await response.json()) as T;
}

export async function signUp(): Promise<string> {
  const id = Math.random().toString(36).slice(2, 10);
  const { token } = await call<{ token: string }>("POST", "/api/account/signup", {
    username: `bench_${id}`,
    email: `bench_${id}@example.test`,
    password: `pw-${id}-Plumbob!`,
  });
  return token;
}

/** Runs `task` over `items`, `concurrency` at a time. */
export async function pool<T, R>(
  items: T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<R>,
) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await task(items[index]!, index);
      }
    }),
  );
  return results;
}

/** A generated tree with its people's ids replaced by the ids the API gave them. */
export function remap(node: TreeNode, ids: Map<string, string>): TreeNode {
  return mapPersonRefs(node, ({ _id }) => ({ _id: ids.get(_id)! }));
}

export interface Seeded {
  treeId: string;
  data: TreeNode;
  people: Person[];
  stats: LegacyStats;
  seedMs: number;
  patchMs: number;
}

export async function seed(token: string, legacy: SyntheticLegacy, title: string): Promise<Seeded> {
  const started = performance.now();
  const tree = await call<{ _id: string }>("POST", "/api/trees", { title }, token);
  const created = await pool(legacy.people, 12, (person) =>
    call<Person>(
      "POST",
      "/api/people",
      {
        tree: tree._id,
        firstName: person.firstName,
        lastName: person.lastName,
        bio: person.bio,
        traits: person.traits,
        aspirations: person.aspirations,
        lifeStates: person.lifeStates,
        custom: person.custom,
      },
      token,
    ),
  );
  const ids = new Map(legacy.people.map((person, index) => [person._id, created[index]!._id]));
  const data = remap(legacy.data, ids);
  const patchStart = performance.now();
  await call("PATCH", `/api/trees/${tree._id}`, { data }, token);
  const done = performance.now();
  return {
    treeId: tree._id,
    data,
    people: created,
    stats: legacyStats(data),
    seedMs: Math.round(done - started),
    patchMs: Math.round(done - patchStart),
  };
}

/** A generated GEDCOM imported as a new tree, the way a player brings a real genealogy in. */
export async function seedGenealogy(token: string, people: number): Promise<Seeded> {
  const { text } = generateGenealogy({ people });
  const started = performance.now();
  const response = await fetch(`${baseURL}/api/trees/import?format=gedcom`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    body: text,
  });
  if (!response.ok) throw new Error(`import → ${response.status} ${await response.text()}`);
  const imported = (await response.json()) as { _id?: string; tree?: { _id: string } };
  const treeId = imported.tree?._id ?? imported._id!;
  const done = performance.now();
  const tree = await call<{ data: TreeNode }>("GET", `/api/trees/${treeId}`, undefined, token);
  const list = await call<Person[]>("GET", `/api/people?tree=${treeId}`, undefined, token);
  return {
    treeId,
    data: tree.data,
    people: list,
    stats: legacyStats(tree.data),
    seedMs: Math.round(done - started),
    patchMs: 0,
  };
}
