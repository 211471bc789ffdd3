import { describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };
import { api } from "../helpers/api";

describe("GET /api/version", () => {
  it("answers the package version and the deploy color", async () => {
    const response = await api.get("/api/version");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ version: pkg.version, color: "unknown" });
  });

  it("answers 404 in the error shape for an unknown API path", async () => {
    const response = await api.get("/api/nope");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errors: [{ detail: "Not found" }] });
  });
});
