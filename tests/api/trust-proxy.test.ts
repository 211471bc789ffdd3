// Issue 32, finding 3, against the production server (scripts/start.ts: the server in front of Next
// resolves the client, lib/client-address.ts). The test stands where nginx would: it connects from
// 127.0.0.1 and sends what nginx's `$proxy_add_x_forwarded_for` makes of a client that wrote its
// own X-Forwarded-For: "<what the client wrote>, <the client's real address>".
//
// Before, with TRUST_PROXY=true or 1 the left-most hop was the client, so each of eight sign-ups
// sent with `X-Forwarded-For: 203.0.113.N, 192.0.2.7` counted for another address and all eight got
// 200 against a limit of 5 an hour. Now `1` is one proxy, and the same holds for a list naming the
// proxy, on both engines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AppServer,
  createDatabase,
  dropDatabase,
  ensureBuild,
  pickPort,
  removeTempDirs,
  tempDir,
} from "../reliability/support/server";

const PASSWORD = "correct horse battery";
const SIGNUPS_PER_HOUR = 5;
const LIMITED =
  "Too many accounts have been created from your network. Please try again in 60 minutes.";

const setups = [
  // One nginx in front: TRUST_PROXY=1.
  {
    engine: "PostgreSQL",
    trust: "1",
    port: pickPort(6_100),
    database: `heirloom_proxy_${process.pid}`,
  },
  // The proxy named by its address (a list), on the embedded default.
  { engine: "PGlite", trust: "127.0.0.1/8, ::1", port: pickPort(6_350), database: null },
];

let run = 0;
const uniqueName = () => `px${process.pid}_${(run += 1)}`;

describe.each(setups)("TRUST_PROXY=$trust on $engine", ({ engine, trust, port, database }) => {
  let server: AppServer;

  beforeAll(async () => {
    ensureBuild();
    const databaseUrl = database ? await createDatabase(database) : undefined;
    server = new AppServer({
      port,
      databaseUrl,
      dataDir: tempDir(`proxy-${engine.toLowerCase()}`),
      env: {
        TRUST_PROXY: trust,
        SIGNUPS_PER_ADDRESS_HOUR: String(SIGNUPS_PER_HOUR),
        SIGNUPS_PER_ADDRESS_DAY: "100",
      },
    });
    await server.start();
  }, 900_000);

  afterAll(async () => {
    await server?.stop();
    if (database) await dropDatabase(database);
    removeTempDirs();
  });

  function signUp(forwardedFor: string) {
    const username = uniqueName();
    return fetch(`${server.url}/api/account/signup`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ username, email: `${username}@example.com`, password: PASSWORD }),
    });
  }

  it("counts eight sign-ups with spoofed left hops against the one client the proxy saw", async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let n = 1; n <= 8; n++) {
      last = await signUp(`203.0.113.${n}, 192.0.2.7`);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(await last!.json()).toEqual({ errors: [{ detail: LIMITED }] });
    // Another client behind the same proxy is its own address, whatever it writes on the left.
    expect((await signUp("192.0.2.7, 192.0.2.8")).status).toBe(200);
  });
});
