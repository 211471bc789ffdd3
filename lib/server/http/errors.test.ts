import { describe, expect, it } from "vitest";
import { Prisma } from "@/lib/generated/prisma/client";
import { isDatabaseUnavailable, isServerBusy } from "./errors";

const known = (code: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError("failed", { code, clientVersion: "7", meta });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["Prisma's can't-reach code", known("P1001")],
    ["a socket error of the driver", Object.assign(new Error("refused"), { code: "ECONNREFUSED" })],
    [
      "PostgreSQL shutting down (57P01)",
      Object.assign(new Error("terminating"), { code: "57P01" }),
    ],
    [
      // what $queryRaw throws while PostgreSQL is down (seen in the reliability suite's log)
      "a raw query's adapter error with kind DatabaseNotReachable",
      known("P2010", {
        driverAdapterError: {
          name: "DriverAdapterError",
          cause: { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5432 },
        },
      }),
    ],
    [
      "a raw query's adapter error with kind ConnectionClosed",
      known("P2010", { driverAdapterError: { cause: { kind: "ConnectionClosed" } } }),
    ],
    [
      "a raw query's adapter error carrying PostgreSQL's 08006",
      known("P2010", {
        driverAdapterError: { cause: { kind: "postgres", originalCode: "08006" } },
      }),
    ],
    ["pg's closed-connection message", new Error("Connection terminated unexpectedly")],
  ])("is true for %s", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", known("P2002")],
    [
      "a raw query's syntax error",
      known("P2010", {
        driverAdapterError: { cause: { kind: "postgres", originalCode: "42601" } },
      }),
    ],
    ["a plain bug", new TypeError("x is undefined")],
    [
      "a cyclic cause chain",
      (() => {
        const error = new Error("loop") as Error & { cause?: unknown };
        error.cause = error;
        return error;
      })(),
    ],
  ])("is false for %s", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe("isServerBusy", () => {
  it.each([
    ["Prisma's expired or unstartable transaction (P2028)", known("P2028")],
    [
      "PostgreSQL's lock timeout (55P03) behind a raw query",
      known("P2010", {
        driverAdapterError: { cause: { kind: "postgres", originalCode: "55P03" } },
      }),
    ],
    ["PostgreSQL's statement timeout (57014)", Object.assign(new Error("canceled"), { code: "57014" })],
    ["a deadlock (40P01)", Object.assign(new Error("deadlock"), { code: "40P01" })],
  ])("is true for %s", (_name, error) => {
    expect(isServerBusy(error)).toBe(true);
  });

  it.each([
    ["a unique violation", known("P2002")],
    ["a plain bug", new TypeError("x is undefined")],
    ["the database out of reach (P1001), which is a 503 of its own", known("P1001")],
  ])("is false for %s", (_name, error) => {
    expect(isServerBusy(error)).toBe(false);
  });
});
