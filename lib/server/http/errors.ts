import "server-only";
import { NextResponse } from "next/server";
import { z } from "zod";
import { Prisma } from "@/lib/generated/prisma/client";
import { describeZodError } from "@/lib/validation-message";
import { logger } from "../logger";

/** The one error type services throw; `handleApiError` turns it into `{errors:[{detail}]}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

export const notFound = (what = "Not found") => new ApiError(404, what);

export function errorResponse(status: number, detail: string, headers?: Record<string, string>) {
  return NextResponse.json({ errors: [{ detail }] }, { status, headers });
}

export const DATABASE_UNAVAILABLE =
  "The database is unavailable right now. Please try again in a moment.";

/** Prisma's codes for a database that cannot be reached or closed the connection. */
const UNREACHABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017"]);
/** Socket errors of the driver (pg) when the server is down or went away. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND"]);
/** The driver adapter's kinds for the same (raw queries surface them instead of a P1xxx code). */
const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
/** pg's messages for a connection that ended under it (these carry no code). */
const CLOSED_CONNECTION = /^Connection terminated|connection error and is not queryable/;

/** What the error walks below read of an error or of one behind it. */
interface ErrorLink {
  code?: unknown;
  originalCode?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/**
 * True when `test` holds for `error` or for an error behind it: its `cause`, and the driver's error
 * behind a Prisma error (`meta.driverAdapterError`, whose cause is `{kind, originalCode, …}`). A
 * cyclic chain is walked once.
 */
function anyInChain(error: unknown, test: (link: ErrorLink) => boolean): boolean {
  const seen = new Set<unknown>();
  const stack: unknown[] = [error];
  while (stack.length > 0) {
    const item = stack.pop() as ErrorLink | null;
    if (!item || typeof item !== "object" || seen.has(item)) continue;
    seen.add(item);
    if (test(item)) return true;
    stack.push(item.cause, item.meta?.driverAdapterError);
  }
  return false;
}

/**
 * True when `error` (or its cause) says the database is down, restarting or unreachable, rather
 * than that the request was wrong: a socket error, a closed connection, or PostgreSQL's class 08
 * (connection exception) and 57P (shutting down, starting up) errors.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  return anyInChain(error, (item) => {
    const code = typeof item.code === "string" ? item.code : "";
    if (typeof item.kind === "string" && UNREACHABLE_KINDS.has(item.kind)) return true;
    if (UNREACHABLE_CODES.has(code) || SOCKET_CODES.has(code) || /^(08|57P0[123])/.test(code)) {
      return true;
    }
    const original = item.originalCode;
    if (typeof original === "string" && /^(08|57P0[123])/.test(original)) return true;
    return typeof item.message === "string" && CLOSED_CONNECTION.test(item.message);
  });
}

export const SERVER_BUSY = "The server is busy right now. Please try again in a moment.";

/** PostgreSQL's codes for work given up while it waited: a lock, a statement timeout, a deadlock. */
const GAVE_UP_CODES = new Set(["55P03", "57014", "40P01", "40001"]);

/**
 * True when `error` says the work gave up waiting rather than that it was wrong: Prisma's P2028
 * (a transaction that could not start within maxWait or outlived its timeout, as a save queued
 * behind many others in a storm does), or PostgreSQL giving up on a lock or a statement. Such a
 * request may be sent again as it was: nothing it did was kept.
 */
export function isServerBusy(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2028") return true;
  return anyInChain(error, (item) =>
    [item.code, item.originalCode].some(
      (code) => typeof code === "string" && GAVE_UP_CODES.has(code),
    ),
  );
}

/** Maps anything thrown by a handler to the spec's error shape; unexpected errors are hidden. */
export function handleApiError(error: unknown, requestId?: string): NextResponse {
  if (error instanceof ApiError) return errorResponse(error.status, error.detail, error.headers);
  if (error instanceof z.ZodError) return errorResponse(400, describeZodError(error));
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === "P2025") return errorResponse(404, "Not found");
    if (error.code === "P2002") return errorResponse(409, "That already exists");
  }
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, requestId }, "database unavailable");
    return errorResponse(503, DATABASE_UNAVAILABLE, { "Retry-After": "5" });
  }
  if (isServerBusy(error)) {
    logger.warn({ err: error, requestId }, "gave up waiting");
    return errorResponse(503, SERVER_BUSY, { "Retry-After": "1" });
  }
  logger.error({ err: error, requestId }, "unhandled error");
  return errorResponse(500, "Something went wrong on our side. Please try again.");
}
