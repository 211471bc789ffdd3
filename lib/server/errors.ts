import "server-only";
import { NextResponse } from "next/server";
import { z } from "zod";
import { Prisma } from "@/lib/generated/prisma/client";
import { describeZodError } from "@/lib/validation-message";
import { logger } from "./logger";

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

/** Maps anything thrown by a handler to the spec's error shape; unexpected errors are hidden. */
export function handleApiError(error: unknown, requestId?: string): NextResponse {
  if (error instanceof ApiError) return errorResponse(error.status, error.detail, error.headers);
  if (error instanceof z.ZodError) return errorResponse(400, describeZodError(error));
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === "P2025") return errorResponse(404, "Not found");
    if (error.code === "P2002") return errorResponse(409, "That already exists");
  }
  logger.error({ err: error, requestId }, "unhandled error");
  return errorResponse(500, "Something went wrong on our side. Please try again.");
}
