// A minimal API client for the reliability tests: what the editor does, over real HTTP.
import { createHash, randomBytes } from "node:crypto";
import net from "node:net";

/** Every request gives up after this long, so a hang is recorded instead of stalling a test. */
export const REQUEST_TIMEOUT_MS = 60_000;

export interface Answer<T = unknown> {
  /** The HTTP status, or 0 when no response came (connection refused, reset, timeout). */
  status: number;
  body: T | undefined;
  /** The raw body text (for checking the error shape). */
  text: string;
  headers: Headers | undefined;
  ms: number;
  /** Why no response came. */
  failure?: string;
}

export async function request<T = unknown>(
  base: string,
  method: string,
  path: string,
  options: { token?: string; body?: string | object; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const started = performance.now();
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: T | undefined;
    try {
      parsed = text ? (JSON.parse(text) as T) : undefined;
    } catch {
      parsed = undefined;
    }
    return {
      status: response.status,
      body: parsed,
      text,
      headers: response.headers,
      ms: performance.now() - started,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return {
      status: 0,
      body: undefined,
      text: "",
      headers: undefined,
      ms: performance.now() - started,
      failure: cause?.code ?? cause?.message ?? (error as Error).name,
    };
  }
}

function ok<T>(answer: Answer<T>, what: string): T {
  if (answer.status !== 200 || answer.body === undefined) {
    throw new Error(`${what} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  }
  return answer.body;
}

/** Signs a new player up; answers their bearer token. */
export async function signUp(base: string, prefix: string): Promise<string> {
  const username = `${prefix}_${randomBytes(5).toString("hex")}`.slice(0, 32);
  const answer = await request<{ token: string }>(base, "POST", "/api/account/signup", {
    body: { username, email: `${username}@example.test`, password: "correct horse battery" },
  });
  return ok(answer, "sign-up").token;
}

export async function createTree(
  base: string,
  token: string,
  title: string,
): Promise<{ _id: string; version: number }> {
  const answer = await request<{ _id: string; version: number }>(base, "POST", "/api/trees", {
    token,
    body: { title },
  });
  return ok(answer, "POST /api/trees");
}

/** Adds `count` people to a tree through POST /api/people, a few at a time; answers their ids. */
export async function addPeople(
  base: string,
  token: string,
  treeId: string,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  const next = async (): Promise<void> => {
    while (ids.length < count) {
      const index = ids.length;
      ids.push("");
      const answer = await request<{ _id: string }>(base, "POST", "/api/people", {
        token,
        body: { tree: treeId, firstName: `Sim ${index + 1}`, lastName: "Reliable" },
      });
      ids[index] = ok(answer, "POST /api/people")._id;
    }
  };
  await Promise.all(Array.from({ length: 4 }, next));
  return ids;
}

export interface StoredTree {
  _id: string;
  version: number;
  data: unknown;
}

/**
 * GET gives each person reference its person's names (issue 13); saves store the ids alone. This
 * takes the names out again, in place, so a read compares with the structure that was sent.
 */
function withoutNames(data: unknown): void {
  const stack: unknown[] = [data];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== "object") continue;
    if (!Array.isArray(item) && "_id" in item) {
      delete (item as { firstName?: unknown }).firstName;
      delete (item as { lastName?: unknown }).lastName;
    }
    stack.push(...(Object.values(item) as unknown[]));
  }
}

/**
 * GET /api/trees/{id} as the original client reads it, names taken out; with `canvas`, as
 * Heirloom's editor loads it (fields=canvas, ADR 038): references as positions in its people.
 */
export async function getTree(
  base: string,
  token: string,
  treeId: string,
  options?: { canvas: boolean },
) {
  const query = options?.canvas ? "?fields=canvas" : "";
  const answer = await request<StoredTree>(base, "GET", `/api/trees/${treeId}${query}`, { token });
  if (answer.body && !options?.canvas) withoutNames(answer.body.data);
  return answer;
}

/** A structure save as the editor sends it: `{data}` with If-Match of the version it last saw. */
export async function saveTree(
  base: string,
  token: string,
  treeId: string,
  body: string,
  ifMatch: number | undefined,
  contentType?: string,
) {
  return request<{ _id: string; version: number }>(base, "PATCH", `/api/trees/${treeId}`, {
    token,
    body,
    headers: {
      ...(ifMatch === undefined ? {} : { "if-match": `"${ifMatch}"` }),
      ...(contentType ? { "content-type": contentType } : {}),
    },
  });
}

/** JSON with object keys sorted: JSONB reorders keys, so equality is checked on this form. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : item,
  );
}

/** A short fingerprint of a structure, the same for a sent body and the stored copy of it. */
export function fingerprint(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex").slice(0, 24);
}

/** The p-th percentile (0-100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** True when a body has the spec's error shape `{"errors":[{"detail":"…"}]}`. */
export function hasErrorShape(text: string): boolean {
  try {
    const body = JSON.parse(text) as { errors?: { detail?: unknown }[] };
    const detail = body.errors?.[0]?.detail;
    return typeof detail === "string" && detail.length > 0;
  } catch {
    return false;
  }
}

export const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/**
 * Sends GET `path` twice over one raw keep-alive connection, `idleMs` apart; answers the status
 * line of each answer (or why none came). Shows whether the server closed the idle connection.
 */
export async function getTwiceOnOneConnection(
  base: string,
  path: string,
  idleMs: number,
): Promise<string[]> {
  const { port, hostname } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  socket.setEncoding("utf8");
  let received = "";
  let closed = false;
  socket.on("data", (chunk: string) => (received += chunk));
  socket.on("close", () => (closed = true));
  socket.on("error", () => (closed = true));
  const send = () =>
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`,
    );
  const statusLines = () => received.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
  const waitFor = async (answers: number) => {
    const deadline = Date.now() + 10_000;
    while (statusLines().length < answers && !closed && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    send();
    await waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    if (closed) return [...statusLines(), "closed by the server while idle"];
    send();
    await waitFor(2);
    return statusLines().length < 2 ? [...statusLines(), "no answer"] : statusLines();
  } finally {
    socket.destroy();
  }
}
