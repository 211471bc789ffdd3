import "server-only";
import type { NextRequest } from "next/server";
import { apiSecurityHeaders } from "@/lib/security-headers";
import { findSessionUser, type AuthUser } from "../auth/find-session-user";
import { ApiError, handleApiError } from "./errors";
import { isStorable } from "./http";
import { requestIdFrom } from "./request-id";
import { logger } from "../logger";

type Params = Record<string, string | string[] | undefined>;
type RouteContext<P> = { params: Promise<P> };
type RouteHandler<P> = (req: NextRequest, ctx: RouteContext<P>) => Promise<Response>;

async function run(
  req: NextRequest,
  work: (requestId: string) => Promise<Response>,
): Promise<Response> {
  const requestId = requestIdFrom(req.headers.get("x-request-id"));
  const started = performance.now();
  let response: Response;
  try {
    response = await work(requestId);
  } catch (error) {
    response = handleApiError(error, requestId);
  }
  const headers = response.headers;
  headers.set("x-request-id", requestId);
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  // proxy.ts skips /api (a middleware run per request cost more than the handler): the security
  // headers are set here, on every answer and error; a handler's own (an image's CSP) is kept.
  const https =
    req.nextUrl.protocol === "https:" || req.headers.get("x-forwarded-proto") === "https";
  for (const [name, value] of Object.entries(apiSecurityHeaders(https))) {
    if (!headers.has(name)) headers.set(name, value);
  }
  logger.info(
    {
      requestId,
      method: req.method,
      path: req.nextUrl.pathname,
      status: response.status,
      ms: Math.round(performance.now() - started),
    },
    "request",
  );
  return response;
}

/** Resolves the bearer token to a user: 401 without one, 403 when invalid, expired or revoked. */
export async function authenticate(req: Request): Promise<AuthUser> {
  const header = req.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match?.[1]) throw new ApiError(401, "Looks like you're not logged in");
  const user = await findSessionUser(match[1]);
  if (!user) {
    throw new ApiError(403, "You're session expired. Please login again.");
  }
  return user;
}

/** Path parameters are ids and file names; one PostgreSQL cannot store cannot name anything. */
async function resolveParams<P extends Params>(ctx: RouteContext<P> | undefined): Promise<P> {
  // Next passes no params to routes without dynamic segments.
  const params = ((await ctx?.params) ?? {}) as P;
  for (const value of Object.values(params)) {
    for (const part of Array.isArray(value) ? value : [value ?? ""]) {
      if (!isStorable(part)) throw new ApiError(404, "Not found");
    }
  }
  return params;
}

/** Wraps a handler that anyone may call: errors become the spec's shape, every request is logged. */
export function withPublic<P extends Params = Record<string, never>>(
  handler: (ctx: { req: NextRequest; params: P; requestId: string }) => Promise<Response>,
): RouteHandler<P> {
  return (req, ctx) =>
    run(req, async (requestId) => handler({ req, params: await resolveParams(ctx), requestId }));
}

/** Wraps a handler that needs a logged-in user. */
export function withAuth<P extends Params = Record<string, never>>(
  handler: (ctx: {
    req: NextRequest;
    params: P;
    user: AuthUser;
    requestId: string;
  }) => Promise<Response>,
): RouteHandler<P> {
  return (req, ctx) =>
    run(req, async (requestId) => {
      const user = await authenticate(req);
      return handler({ req, params: await resolveParams(ctx), user, requestId });
    });
}

/** Marks otherMethods' handlers (its value: the Allow header), so tests tell them apart. */
export const OTHER_METHODS = Symbol.for("heirloom.otherMethods");

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Handlers for every method a route does not have, and for OPTIONS: a route exports the ones it
 * lacks, `export const { POST, PUT, OPTIONS } = otherMethods("GET", "PATCH")`. Next would answer
 * those with an empty 405 (and an OPTIONS listing every exported method) without the API's
 * headers; these answer 405 in the spec's error shape with Allow, and OPTIONS with 204 and Allow.
 */
export function otherMethods<P extends Params = Record<string, never>>(
  ...allowed: Method[]
): Record<Method | "OPTIONS", RouteHandler<P>> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const handler = withPublic<P>(async ({ req }) => {
    if (req.method === "OPTIONS") {
      return new Response(null, { status: 204, headers: { Allow: allow } });
    }
    throw new ApiError(405, `This address does not take ${req.method}. It takes ${allow}.`, {
      Allow: allow,
    });
  });
  const marked = Object.assign(handler, { [OTHER_METHODS]: allow });
  return { GET: marked, POST: marked, PUT: marked, PATCH: marked, DELETE: marked, OPTIONS: marked };
}
