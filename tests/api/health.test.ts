import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";

describe("GET /api/health", () => {
  it("reports the database as reachable", async () => {
    const response = await api.get("/api/health");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "ok", database: "ok" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });
});
