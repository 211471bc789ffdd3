// Fuzzes every route under app/api (found on disk, so new routes are fuzzed without being listed)
// with fast-check: FUZZ_RUNS cases per route × method (500 here, 10,000 in `npm run fuzz`). Each
// case must get no 5xx, an {"errors":[{"detail"}]} body on refusal, 403 only for a bad session,
// and a refused request must leave the database and the stored files exactly as they were.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FuzzFixture,
  buildFixture,
  snapshot,
  useOwnDatabase,
} from "../../helpers/fuzz-fixture";
import { paramArb } from "../../helpers/fuzz-inputs";
import { FUZZED_METHODS, type FuzzedMethod, discoverRoutes } from "../../helpers/fuzz-routes";
import { FUZZ_RUNS, FUZZ_SEED, type FuzzState, fuzzRoute } from "../../helpers/fuzz-runner";

const routes = await discoverRoutes();
const fuzzed = new Set<string>(FUZZED_METHODS);

let drop: () => Promise<void>;
let state: FuzzState;

beforeAll(async () => {
  const own = await useOwnDatabase();
  drop = own.drop;
  const fixture: FuzzFixture = await buildFixture(own.dataDir);
  state = { fixture, baseline: await snapshot(own.dataDir), statuses: {}, slowest: {} };
  console.info(`fuzz: ${FUZZ_RUNS} runs per route, FUZZ_SEED=${FUZZ_SEED}`);
}, 120_000);

afterAll(async () => {
  // With FUZZ_STATS or FUZZ_PROFILE: how far the cases got, route by route (how many reached
  // validation or succeeded), and the slowest requests.
  if (!process.env.FUZZ_STATS && !process.env.FUZZ_PROFILE) return drop?.();
  for (const [route, counts] of Object.entries(state?.statuses ?? {}))
    console.info(`fuzz: ${route} ${JSON.stringify(counts)}`);
  for (const [route, slowest] of Object.entries(state?.slowest ?? {}))
    console.info(
      `fuzz: slowest ${route}\n${slowest.map(([ms, c]) => `${ms.toFixed(0)} ms ${c}`).join("\n")}`,
    );
  await drop?.();
});

describe("route discovery", () => {
  it("finds the API's routes", () => {
    const templates = routes.map((r) => r.template);
    expect(templates).toEqual(
      expect.arrayContaining(["/api/trees", "/api/trees/[treeId]", "/api/upload/[...path]"]),
    );
  });

  it("has a generator for every exported handler and every path parameter", () => {
    const uncovered = routes.flatMap((route) => [
      ...route.handlers.filter((h) => !fuzzed.has(h)).map((h) => `${h} ${route.template}`),
      ...route.params
        .filter((p) => !paramArb(p, state.fixture))
        .map((p) => `[${p.name}] in ${route.template}`),
    ]);
    expect(uncovered).toEqual([]);
  });
});

describe.each(routes)("$template", (route) => {
  const methods = route.handlers.filter((h): h is FuzzedMethod => fuzzed.has(h));
  it.each(methods)(
    `%s ${route.template}`,
    async (method) => {
      await fuzzRoute(route, method, state);
    },
    FUZZ_RUNS * 250 + 120_000,
  );
});
