import { randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflateLast, deflateMiddle, gzipOf } from "./gzip-parts";

const text = (n: number, seed: string) =>
  Buffer.from(Array.from({ length: n }, (_, i) => `{"${seed}": ${i % 97}, "x": "${i}"}`).join(","));

describe("gzipOf (parts deflated apart, one gzip body)", () => {
  it("unzips to the parts' bytes in order, with Node's gunzip and with gzip(1)", async () => {
    const parts = [text(20_000, "a"), text(5, "b"), Buffer.alloc(0), randomBytes(70_000)];
    const deflated = await Promise.all([
      ...parts.slice(0, -1).map((part) => deflateMiddle(part)),
      deflateLast(parts.at(-1)!),
    ]);
    const body = gzipOf(deflated);
    const whole = Buffer.concat(parts);
    expect(zlib.gunzipSync(body).equals(whole)).toBe(true);
    // another inflater, which checks the CRC and the length too
    expect(execFileSync("gzip", ["-dc"], { input: body }).equals(whole)).toBe(true);
  });

  it("is one part's gzip when there is one part, and costs about as many bytes as gzip", async () => {
    const whole = text(50_000, "c");
    const one = gzipOf([await deflateLast(whole)]);
    expect(zlib.gunzipSync(one).equals(whole)).toBe(true);
    const split = gzipOf([
      await deflateMiddle(whole.subarray(0, 300_000)),
      await deflateLast(whole.subarray(300_000)),
    ]);
    const plain = zlib.gzipSync(whole, { level: 1 });
    expect(split.length).toBeLessThan(plain.length * 1.01);
  });

  it("refuses nothing an inflater would: a part cut inside a multi-byte character", async () => {
    const bytes = Buffer.from("Émile Ōkami 🌳".repeat(1000));
    const body = gzipOf([
      await deflateMiddle(bytes.subarray(0, 7)),
      await deflateLast(bytes.subarray(7)),
    ]);
    expect(zlib.gunzipSync(body).toString()).toBe(bytes.toString());
  });
});
