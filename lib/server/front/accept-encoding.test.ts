import { describe, expect, it } from "vitest";
import { acceptsGzip, gzipWeight } from "./accept-encoding";

const req = (value?: string) => ({ headers: { "accept-encoding": value } });

describe("acceptsGzip", () => {
  it("takes gzip when named with a weight above 0, or by *", () => {
    expect(acceptsGzip(req("gzip, deflate, br"))).toBe(true);
    expect(acceptsGzip(req("br;q=1.0, gzip;q=0.5"))).toBe(true);
    expect(acceptsGzip(req("*"))).toBe(true);
    expect(acceptsGzip(req("x-gzip"))).toBe(true);
    expect(acceptsGzip(req("GZIP;Q=0.1"))).toBe(true);
  });

  it("honours q=0, which refuses gzip, whatever * says", () => {
    expect(acceptsGzip(req("gzip;q=0"))).toBe(false);
    expect(acceptsGzip(req("gzip; q=0.000, identity"))).toBe(false);
    expect(acceptsGzip(req("*;q=1, gzip;q=0"))).toBe(false);
    expect(acceptsGzip(req("br, *;q=0"))).toBe(false);
  });

  it("does not take gzip when it is not named, or from a word that merely contains it", () => {
    expect(acceptsGzip(req(undefined))).toBe(false);
    expect(acceptsGzip(req("identity"))).toBe(false);
    expect(acceptsGzip(req("br"))).toBe(false);
    expect(acceptsGzip(req("notgzip"))).toBe(false);
  });

  it("reads a bounded number of codings", () => {
    expect(gzipWeight(`${"br,".repeat(10_000)}gzip`)).toBe(0);
  });
});
