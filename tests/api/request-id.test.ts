// Issue 22.7: a client's X-Request-Id (8 KB tested) was echoed and logged as sent.
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "@/lib/server/logger";
import { MAX_REQUEST_ID_LENGTH } from "@/lib/server/http/request-id";
import { api } from "../helpers/api";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => {
  vi.restoreAllMocks();
});

/** The request ids of the "request" lines logged during `call`. */
async function loggedIds(call: () => Promise<unknown>): Promise<unknown[]> {
  const info = vi.spyOn(logger, "info");
  await call();
  return info.mock.calls
    .filter((args) => args[1] === "request")
    .map((args) => (args[0] as { requestId?: unknown }).requestId);
}

describe("X-Request-Id", () => {
  it.each([
    ["an 8 KB id", "a".repeat(8192)],
    ["an id one character too long", "b".repeat(MAX_REQUEST_ID_LENGTH + 1)],
    ["an id with a semicolon and a comma", "abc;def,ghi"],
    ["an id with quotes and spaces", 'x" y'],
  ])("replaces %s with a generated one, answered and logged", async (_name, given) => {
    let answered: string | null = null;
    const ids = await loggedIds(async () => {
      const response = await api.get("/api/version", { headers: { "x-request-id": given } });
      expect(response.status).toBe(200);
      answered = response.headers.get("x-request-id");
    });
    expect(answered).toMatch(UUID);
    expect(ids).toEqual([answered]);
  });

  it("keeps a short id of safe characters, on answers and on errors", async () => {
    const id = "trace-2f6c:01HZY3M9QK";
    const ok = await api.get("/api/version", { headers: { "x-request-id": id } });
    expect(ok.headers.get("x-request-id")).toBe(id);
    const refused = await api.get("/api/user", { headers: { "x-request-id": id } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("x-request-id")).toBe(id);
  });
});
