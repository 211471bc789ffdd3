import { describe, expect, it, vi } from "vitest";

describe("ImportError", () => {
  it("is recognised across two copies of its module, as the worker pool's is by a route's", async () => {
    const first = await import("./types");
    vi.resetModules();
    const second = await import("./types");
    expect(second.ImportError).not.toBe(first.ImportError);
    const error = new second.ImportError("This file is not a Sims 4 save.");
    expect(error instanceof first.ImportError).toBe(true);
    expect(error.message).toBe("This file is not a Sims 4 save.");
    expect(new Error("other") instanceof first.ImportError).toBe(false);
    expect((null as unknown as object) instanceof first.ImportError).toBe(false);
  });
});
