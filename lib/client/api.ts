"use client";
import { clearToken, getToken } from "./session-store";
import { notify } from "./toast";

export const NOT_LOGGED_IN = "Looks like you're not logged in";
export const SESSION_EXPIRED = "You're session expired. Please login again.";

/** A failed call; `detail` is the server's errors[0].detail when it sent one. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | null,
  ) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = "ApiRequestError";
  }
  /** True when the call failed because the user must log in (no token, or an expired one). */
  get needsLogin(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

export interface ApiOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** Shown when the server sent no detail. Without it (or with `silent`) no toast is raised. */
  fallback?: string;
  silent?: boolean;
  /** Statuses the caller handles itself: no toast, the error is still thrown. */
  expect?: number[];
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

// Replaced by the app shell with its router; a full navigation is the fallback.
// eslint-disable-next-line @next/next/no-location-assign-relative-destination
let onSessionExpired: () => void = () => window.location.assign("/login");

/** Lets the app route to /login with its router instead of a full reload. */
export function setSessionExpiredHandler(handler: () => void): void {
  onSessionExpired = handler;
}

async function readDetail(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { errors?: { detail?: unknown }[] };
    const detail = body.errors?.[0]?.detail;
    return typeof detail === "string" ? detail : null;
  } catch {
    return null;
  }
}

/**
 * Every client call goes through here: it adds the bearer header, logs the user out on 403,
 * shows errors[0].detail (or the fallback) in a toast that stays open, and throws ApiRequestError.
 */
export async function api<T = unknown>(path: string, options: ApiOptions = {}): Promise<T> {
  const { method = "GET", body, auth = true, fallback, silent = false, expect = [] } = options;
  const headers: Record<string, string> = { ...options.headers };
  if (auth) {
    const token = getToken();
    if (!token) {
      if (!silent) notify.error(NOT_LOGGED_IN);
      throw new ApiRequestError(401, NOT_LOGGED_IN);
    }
    headers.authorization = `Bearer ${token}`;
  }
  if (body !== undefined) headers["content-type"] = "application/json";

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    if (!silent && fallback) notify.error(fallback);
    throw new ApiRequestError(0, null);
  }

  if (response.status === 403 && auth) {
    clearToken();
    notify.warning(SESSION_EXPIRED);
    onSessionExpired();
    throw new ApiRequestError(403, SESSION_EXPIRED);
  }
  if (!response.ok) {
    const detail = await readDetail(response);
    if (!silent && !expect.includes(response.status) && (detail ?? fallback)) {
      notify.error(detail ?? fallback ?? "");
    }
    throw new ApiRequestError(response.status, detail);
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
