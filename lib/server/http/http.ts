import "server-only";
import type { NextRequest } from "next/server";
import { NextResponse } from "next/server";
import type { z } from "zod";
import { forwardedClient, normalizeAddress } from "@/lib/client-address";
import { ApiError } from "./errors";
import { isStorable } from "../storable";

/** Large enough for a 50,000-node tree; anything bigger is refused before parsing. */
export const MAX_JSON_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Reads a raw request body of at most `limit` bytes, refusing it with 413 and `tooLarge` as soon
 * as the declared length or the running count passes the limit, so an endless body never fills
 * the memory. JSON bodies, uploads and imports all read through it.
 */
export async function readBodyBytes(
  req: Request,
  limit: number,
  tooLarge: string,
): Promise<Buffer> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new ApiError(413, tooLarge);
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new ApiError(413, tooLarge);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

async function readLimited(req: Request, limit: number): Promise<string> {
  return (await readBodyBytes(req, limit, "The request body is too large")).toString("utf8");
}

export { isStorable } from "../storable";

/**
 * PostgreSQL cannot store NUL characters or unpaired UTF-16 surrogates in text or JSONB. In JSON
 * they can only arrive as \u escapes (a raw NUL is invalid JSON; UTF-8 decoding never yields a
 * lone surrogate), so only bodies with such an escape are walked, without recursion, and refused.
 */
function assertStorable(text: string, value: unknown): void {
  if (!/\\u(0000|[dD][89a-fA-F])/.test(text)) return;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (!isStorable(item))
        throw new ApiError(400, "Text cannot contain NUL characters or unpaired surrogates");
    } else if (item !== null && typeof item === "object") {
      for (const [key, child] of Object.entries(item)) stack.push(key, child);
    }
  }
}

/** Reads a JSON body (empty counts as `{}`) and validates it; failures become 400 with a detail. */
export async function parseBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  limit = MAX_JSON_BODY_BYTES,
): Promise<z.output<S>> {
  return parseJsonText(await readLimited(req, limit), schema);
}

/** A JSON body's text, read as parseBody reads it (for a route that looks at it first). */
export const readBodyText = (req: Request, limit = MAX_JSON_BODY_BYTES) => readLimited(req, limit);

/** parseBody on a body already read (readBodyText). */
export function parseJsonText<S extends z.ZodType>(text: string, schema: S): z.output<S> {
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError(400, "The request body must be valid JSON");
    }
    assertStorable(text, value);
  }
  return schema.parse(value);
}

/** Validates the query string. */
export function parseQuery<S extends z.ZodType>(
  req: NextRequest | Request,
  schema: S,
): z.output<S> {
  const url = new URL(req.url);
  return schema.parse(Object.fromEntries(url.searchParams));
}

export function json(data: unknown, init?: number | ResponseInit): NextResponse {
  return NextResponse.json(data, typeof init === "number" ? { status: init } : init);
}

/**
 * The caller's address, as the server in front of Next resolved it under TRUST_PROXY
 * (lib/server/front/server.ts writes it as the only X-Forwarded-For hop; lib/client-address.ts).
 * Every per-address limit (sign-in, sign-up, forgotten password and username, Gallery search)
 * reads it here.
 */
export function clientIp(req: Request): string {
  return (
    forwardedClient(req.headers.get("x-forwarded-for")) ??
    normalizeAddress(req.headers.get("x-real-ip") ?? "") ??
    "unknown"
  );
}
