import { describe, expect, it } from "vitest";
import { BodyCache } from "./body-cache";

const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe("BodyCache", () => {
  it("answers a body only for the generation it was made from", () => {
    const cache = new BodyCache(1000);
    cache.set("people:a", 3, bytes(10));
    expect(cache.get("people:a", 3)).toEqual(bytes(10));
    expect(cache.get("people:a", 4)).toBeUndefined();
    expect(cache.get("people:a", 2)).toBeUndefined();
    expect(cache.get("tree:a", 3)).toBeUndefined();
  });

  it("replaces a key's body with a newer generation, never an older one", () => {
    const cache = new BodyCache(1000);
    cache.set("tree:a", 5, bytes(10, 5));
    cache.set("tree:a", 4, bytes(20, 4));
    expect(cache.get("tree:a", 5)).toEqual(bytes(10, 5));
    cache.set("tree:a", 6, bytes(30, 6));
    expect(cache.get("tree:a", 6)).toEqual(bytes(30, 6));
    expect(cache.bytes).toBe(30);
  });

  it("drops the least recently used bodies once over budget", () => {
    const cache = new BodyCache(100);
    cache.set("a", 1, bytes(25));
    cache.set("b", 1, bytes(25));
    cache.set("c", 1, bytes(25));
    cache.get("a", 1);
    cache.set("d", 1, bytes(25));
    cache.set("e", 1, bytes(25));
    expect(cache.get("b", 1)).toBeUndefined();
    expect(cache.get("a", 1)).toBeDefined();
    expect(cache.get("c", 1)).toBeDefined();
    expect(cache.get("e", 1)).toBeDefined();
    expect(cache.bytes).toBeLessThanOrEqual(100);
  });

  it("keeps no body over a quarter of the budget", () => {
    const cache = new BodyCache(100);
    cache.set("small", 1, bytes(25));
    cache.set("big", 1, bytes(26));
    expect(cache.get("big", 1)).toBeUndefined();
    expect(cache.get("small", 1)).toBeDefined();
  });
});
