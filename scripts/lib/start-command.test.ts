import path from "node:path";
import { describe, expect, it } from "vitest";
import { startArgs } from "./start-command";

describe("startArgs", () => {
  it("answers npm start's tsx arguments: the server's Node flags, then scripts/start.ts", () => {
    const args = startArgs(path.resolve(import.meta.dirname, "../.."));
    expect(args.at(-1)).toBe("scripts/start.ts");
    // ADR 039: a young generation large enough for a patch's short-lived copies
    expect(args).toContain("--max-semi-space-size=64");
  });
});
