import { describe, expect, it } from "vitest";
import { MAX_REQUEST_ID_LENGTH, requestIdFrom } from "./request-id";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("requestIdFrom", () => {
  it.each([
    "3f2b9c1e-5d4a-4c7b-9e8f-0a1b2c3d4e5f",
    "01HZY3M9QK8W2X7V5T4R6P0N1J",
    "req_42",
    "trace:abc/def+ghi=@1.2",
    "a".repeat(MAX_REQUEST_ID_LENGTH),
  ])("keeps the safe id %s", (id) => {
    expect(requestIdFrom(id)).toBe(id);
  });

  it.each([
    ["an 8 KB id", "a".repeat(8192)],
    ["one character too long", "a".repeat(MAX_REQUEST_ID_LENGTH + 1)],
    ["an empty id", ""],
    ["a line break", "abc\r\nSet-Cookie: x=1"],
    ["spaces and quotes", 'abc "def"'],
    ["a JSON fragment", '{"level":60}'],
    ["non-ASCII", "idé"],
    ["a NUL", "a\u0000b"],
  ])("replaces %s with a fresh UUID", (_name, id) => {
    expect(requestIdFrom(id)).toMatch(UUID);
  });

  it("replaces a missing or repeated header", () => {
    expect(requestIdFrom(null)).toMatch(UUID);
    expect(requestIdFrom(undefined)).toMatch(UUID);
    expect(requestIdFrom(["a", "b"])).toMatch(UUID);
    expect(requestIdFrom(null)).not.toBe(requestIdFrom(null));
  });
});
