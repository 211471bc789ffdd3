import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { api } from "../helpers/api";

describe("embedded PGlite", () => {
  // Opening the embedded database (loading PGlite's WASM) is start-up work: on a busy 2-core machine
  // it can outlast the health check's 2 s budget, and the check then rightly answers 503 (not ready).
  // Open it first, as a server that has been up a moment has, so the check measures the query.
  beforeAll(async () => {
    await db.$queryRaw`SELECT 1`;
  }, 60_000);

  it("serves the health check from the migrated embedded database", async () => {
    const response = await api.get("/api/health");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "ok", database: "ok" });
  });
});
