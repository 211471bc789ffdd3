// Runs fast-check properties against one route × method: sends each generated request through the
// in-process router and checks the answer and the stored data. FUZZ_RUNS sets the cases per route
// (500 by default), FUZZ_SEED (and FUZZ_PATH, from a failure report) replays a run exactly.
import fc from "fast-check";
import { settleMailForTests } from "@/lib/server/account/mail-jobs";
import { type ApiResponse, call } from "./api";
import {
  type AuthChoice,
  type FuzzFixture,
  type Snapshot,
  changedParts,
  restoreFixture,
  snapshot,
} from "./fuzz-fixture";
import { type BodySpec, bodyArb, headersArb, paramArb, queryArb, routeInputs } from "./fuzz-inputs";
import type { DiscoveredRoute, FuzzedMethod } from "./fuzz-routes";

export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 500);
/** One seed for the whole run (printed on failure); FUZZ_SEED replays it. */
export const FUZZ_SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : Math.floor(Math.random() * 0x7fffffff);

export interface FuzzCase {
  auth: AuthChoice;
  /** Percent-encoded segments per dynamic parameter. */
  params: Record<string, string[]>;
  query: string;
  body: BodySpec;
  headers: [string, string][];
}

const short = (text: string, max = 160) =>
  text.length <= max ? text : `${text.slice(0, max)}… (${text.length.toLocaleString("en")} chars)`;

function describeBody(body: BodySpec): string {
  const made = body.content();
  if (made === null) return "none";
  const content =
    typeof made === "string"
      ? JSON.stringify(short(made, 300))
      : `${made.length.toLocaleString("en")} bytes: ${Buffer.from(made.subarray(0, 48)).toString("hex")}${made.length > 48 ? "…" : ""}`;
  return `${body.label}, ${content}`;
}

/** The URL path of a case, e.g. /api/trees/%2e%2e for /api/trees/[treeId]. */
export function casePath(route: DiscoveredRoute, c: FuzzCase): string {
  return route.template.replace(/\[\[?(?:\.\.\.)?(\w+)\]?\]/g, (_, name: string) =>
    (c.params[name] ?? []).join("/"),
  );
}

/** A readable one-request description, used when fast-check prints a counterexample. */
export function describeCase(method: string, route: DiscoveredRoute, c: FuzzCase): string {
  const lines = [
    `${method} ${short(casePath(route, c) + c.query, 300)}`,
    `  authorization: ${c.auth.label} (${c.auth.validity})${c.auth.header ? ` = ${JSON.stringify(short(c.auth.header, 80))}` : ""}`,
    `  content-type: ${JSON.stringify(c.body.contentType)}`,
    ...c.headers.map(([name, value]) => `  ${name}: ${JSON.stringify(short(value, 80))}`),
    `  body: ${method === "GET" ? "(not sent with GET)" : describeBody(c.body)}`,
  ];
  return lines.join("\n");
}

/** Every request a route × method can get. */
export function caseArb(
  route: DiscoveredRoute,
  method: FuzzedMethod,
  f: FuzzFixture,
): fc.Arbitrary<FuzzCase> {
  const inputs = routeInputs(method, route.template, f);
  const params: Record<string, fc.Arbitrary<string[]>> = {};
  for (const param of route.params) {
    const arb = paramArb(param, f, method);
    if (!arb) throw new Error(`No path generator for [${param.name}] in ${route.template}`);
    params[param.name] = arb;
  }
  const valid = f.auth.filter((a) => a.validity === "valid");
  return fc
    .record({
      // Half the cases carry a valid session, so they reach validation and the services.
      auth: fc.oneof(fc.constantFrom(...valid), fc.constantFrom(...f.auth)),
      params: fc.record(params),
      query: queryArb(inputs.queries),
      body: bodyArb(inputs.bodies, f),
      headers: headersArb,
    })
    .map((c) => Object.assign(c, { [fc.toStringMethod]: () => describeCase(method, route, c) }));
}

async function send(method: string, route: DiscoveredRoute, c: FuzzCase): Promise<ApiResponse> {
  const headers: Record<string, string> = {};
  for (const [name, value] of c.headers) headers[name] = value;
  if (c.auth.header !== null) headers.authorization = c.auth.header;
  if (c.body.contentType !== null) headers["content-type"] = c.body.contentType;
  // GET cannot carry a body in fetch's Request; its body is simply not sent.
  const rawBody = method === "GET" ? null : c.body.content();
  return call(method, casePath(route, c) + c.query, {
    headers,
    rawBody: (rawBody ?? undefined) as BodyInit | undefined,
  });
}

function problem(what: string, response: ApiResponse, extra = ""): Error {
  const body =
    response.body === undefined ? response.bytes.toString("utf8") : JSON.stringify(response.body);
  return new Error(`${what}\n  answered ${response.status}: ${short(body ?? "", 400)}${extra}`);
}

/** The error body the spec promises: {"errors":[{"detail":"<text>"}]}. */
function checkErrorShape(response: ApiResponse): void {
  const type = response.headers.get("content-type") ?? "";
  const body = response.body as { errors?: { detail?: unknown }[] } | undefined;
  const detail = body?.errors?.[0]?.detail;
  if (
    !type.includes("application/json") ||
    !Array.isArray(body?.errors) ||
    typeof detail !== "string" ||
    detail.trim() === ""
  )
    throw problem('A refusal without {"errors":[{"detail": "…"}]}', response);
}

export interface FuzzState {
  fixture: FuzzFixture;
  baseline: Snapshot;
  /** Answers seen per "METHOD /template", by status: shows how deep the cases got. */
  statuses: Record<string, Record<number, number>>;
  /** With FUZZ_PROFILE set: the slowest requests per route, to find what makes a case costly. */
  slowest: Record<string, [number, string][]>;
}

/** The calls that check the current password (lib/server/account/verify-current-password.ts). */
const PASSWORD_CHECKS = new Set([
  "PUT /api/user/email",
  "PUT /api/user/password",
  "DELETE /api/account",
]);

/**
 * Issue 32.5: the wrong current password that reaches the session's limit ends the session that
 * sent it, answered 403 like any ended session; deleting its Session row is its one write (the
 * fixture puts the session back, and clears the count, after it).
 */
function endedItsSession(
  method: string,
  route: DiscoveredRoute,
  c: FuzzCase,
  response: ApiResponse,
): boolean {
  const body = response.body as { errors?: { detail?: unknown }[] } | undefined;
  return (
    c.auth.validity === "valid" &&
    response.status === 403 &&
    PASSWORD_CHECKS.has(`${method} ${route.template}`) &&
    body?.errors?.[0]?.detail === "You're session expired. Please login again."
  );
}

/** The promises about the answer itself; answers the first one broken, if any. */
function answerProblem(
  c: FuzzCase,
  response: ApiResponse,
  sessionEnded = false,
): Error | undefined {
  const status = response.status;
  if (status >= 500) return problem("A server error", response);
  const accepted = status >= 200 && status < 300;
  // 304 is the one refusal-range answer without a body (HTTP forbids one); image routes answer
  // their errors in the same JSON shape, so they need no exception.
  if (!accepted && status !== 304) {
    try {
      checkErrorShape(response);
    } catch (error) {
      return error as Error;
    }
  }
  if (status === 403 && c.auth.validity !== "invalid" && !sessionEnded)
    return problem("403 without an invalid session (403 must mean only that)", response);
  if (status === 401 && c.auth.validity === "valid")
    return problem("A valid session was refused", response);
  return undefined;
}

/** Sends one case and checks every promise the API makes about refusals. */
export async function checkCase(
  method: FuzzedMethod,
  route: DiscoveredRoute,
  c: FuzzCase,
  state: FuzzState,
): Promise<void> {
  const started = performance.now();
  const response = await send(method, route, c);
  const ms = performance.now() - started;
  await settleMailForTests(); // the mail it queued is its write, not the next case's (ADR 025)
  const accepted = response.status >= 200 && response.status < 300;
  const sessionEnded = endedItsSession(method, route, c, response);
  let failure = answerProblem(c, response, sessionEnded);

  const after = await snapshot(state.fixture.dataDir);
  if (!accepted) {
    // The one narrow exception: a GET may count a view of a public tree.
    const changed = (await changedParts(state.baseline, after)).filter(
      (part) =>
        !(method === "GET" && part === "PublishedTree VIEW") &&
        !(sessionEnded && part === "Session DELETE"),
    );
    if (changed.length > 0)
      failure ??= problem(
        "A refused request changed stored data",
        response,
        `\n  changed: ${changed.join(", ")}`,
      );
  }
  if (after.lastWrite !== state.baseline.lastWrite || after.files !== state.baseline.files) {
    // Writes are kept apart from the next case (and from shrinking): what they created goes and
    // the fixture returns.
    await restoreFixture(state.fixture);
    state.baseline = await snapshot(state.fixture.dataDir);
  }
  const key = `${method} ${route.template}`;
  const counts = (state.statuses[key] ??= {});
  counts[response.status] = (counts[response.status] ?? 0) + 1;
  if (process.env.FUZZ_PROFILE) {
    const slowest = (state.slowest[key] ??= []);
    slowest.push([ms, `${response.status} ${describeCase(method, route, c)}`]);
    slowest.sort((a, b) => b[0] - a[0]).splice(3);
  }
  if (failure) throw failure;
}

/** Each route × method gets its own seed, derived from FUZZ_SEED, so routes see different cases. */
function routeSeed(method: string, route: DiscoveredRoute): number {
  let hash = FUZZ_SEED | 0;
  for (const char of `${method} ${route.template}`)
    hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** Runs the property for one route × method and fails with a readable, replayable report. */
export async function fuzzRoute(
  route: DiscoveredRoute,
  method: FuzzedMethod,
  state: FuzzState,
): Promise<void> {
  // Whatever the previous route left (accepted writes, a failure) does not leak into this one.
  await restoreFixture(state.fixture);
  state.baseline = await snapshot(state.fixture.dataDir);
  const details = await fc.check(
    fc.asyncProperty(caseArb(route, method, state.fixture), (c) =>
      checkCase(method, route, c, state),
    ),
    {
      numRuns: FUZZ_RUNS,
      seed: routeSeed(method, route),
      path: process.env.FUZZ_PATH,
    },
  );
  if (!details.failed) return;
  const report = fc.defaultReportMessage(details) ?? "failed";
  const cause =
    details.errorInstance instanceof Error
      ? details.errorInstance.message
      : String(details.errorInstance);
  throw new Error(
    `${method} ${route.template}: ${report}\n\n${cause}\n\nReplay: FUZZ_SEED=${FUZZ_SEED} FUZZ_PATH="${details.counterexamplePath}" FUZZ_RUNS=${FUZZ_RUNS} npx vitest run --project api tests/api/fuzz -t "${method} ${route.template}"`,
  );
}
