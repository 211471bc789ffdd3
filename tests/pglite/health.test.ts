import { describe, expect, it } from "vitest";
import { api } from "../helpers/api";

describe("embedded PGlite", () => {
  it("serves the health check from the migrated embedded database", async () => {
    const response = await api.get("/api/health");
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: "ok", database: "ok" });
  });
});
