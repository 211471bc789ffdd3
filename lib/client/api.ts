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
    /** What the user should read: the detail, else the call's fallback text. */
    readonly text: string | null = detail,
    /** The form field the error is about (from the call's `fieldOf`), if any. */
    readonly field: string | null = null,
    /** True when no toast was raised: the caller (a Form) shows `text` itself. */
    readonly inline = false,
  ) {
    super(detail ?? `Request failed with status ${status}`);
    this.name = "ApiRequestError";
  }
  /** True when the call failed because the user must log in (no token, or an expired one). */
  get needsLogin(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

/**
 * Statuses of a call that failed for a network reason: 0 (no answer: offline, the connection
 * dropped) and a proxy's or a busy server's 502, 503 and 504. Such a write may be tried again as
 * it is; in `expect` they silence the toast of a caller that keeps and retries its writes.
 */
export const NETWORK_FAILURES = [0, 502, 503, 504];

/** True when a call failed for a network reason (see NETWORK_FAILURES), not a refusal. */
export const isNetworkFailure = (error: unknown): boolean =>
  error instanceof ApiRequestError && NETWORK_FAILURES.includes(error.status);

export interface ApiOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  /** Send the bearer token (default true). */
  auth?: boolean;
  /** Shown when the server sent no detail. Without it (or with `silent`) no toast is raised. */
  fallback?: string;
  silent?: boolean;
  /** Statuses the caller handles itself: no toast, the error is still thrown (0: no answer). */
  expect?: number[];
  /** Header names in lower case (a `content-type` given here is kept). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Sees the response's headers (an ETag, say), of a success or a failure, before it is read. */
  onHeaders?: (headers: Headers) => void;
  /**
   * The call belongs to a form that shows its own errors (see Form in components/ui/form.tsx):
   * a server error raises no toast; the thrown error carries its text and, through `fieldOf`,
   * the field it is about, so the form shows it beside that field. 403 still logs out.
   */
  inline?: boolean;
  /** Names the field an error is about, from its status and detail; null for the whole form. */
  fieldOf?: (detail: string, status: number) => string | null | undefined;
}

/** The toast topic of a call: one open error per action, closed when the action succeeds. */
const topicOf = (method: string, path: string) => `${method} ${path.split("?")[0]}`;

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
  const { inline = false, fieldOf } = options;
  const topic = topicOf(method, path);
  const headers: Record<string, string> = { ...options.headers };
  if (auth) {
    const token = getToken();
    if (!token) {
      if (!silent) notify.error(NOT_LOGGED_IN);
      throw new ApiRequestError(401, NOT_LOGGED_IN);
    }
    headers.authorization = `Bearer ${token}`;
  }
  if (body !== undefined) headers["content-type"] ??= "application/json";

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
    if (inline) throw new ApiRequestError(0, null, fallback ?? null, null, true);
    if (!silent && fallback && !expect.includes(0)) notify.error(fallback, topic);
    throw new ApiRequestError(0, null, fallback ?? null);
  }

  options.onHeaders?.(response.headers);
  if (response.status === 403 && auth) {
    clearToken();
    notify.warning(SESSION_EXPIRED);
    onSessionExpired();
    throw new ApiRequestError(403, SESSION_EXPIRED);
  }
  if (!response.ok) {
    const detail = await readDetail(response);
    const text = detail ?? fallback ?? null;
    if (inline) {
      const field = detail === null ? null : (fieldOf?.(detail, response.status) ?? null);
      throw new ApiRequestError(response.status, detail, text, field, true);
    }
    if (!silent && !expect.includes(response.status) && text) notify.error(text, topic);
    throw new ApiRequestError(response.status, detail, text);
  }
  notify.resolved(topic);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** What POST /api/trees/import answers: the new tree and what was brought in. */
export interface TreeImportResult {
  tree: { _id: string; title: string };
  imported: {
    people: number;
    images: number;
    /** The images left out: a count, or one entry per image with the reason. */
    skippedImages: number | { image: string; reason: string }[];
    notes?: string[];
    /** Unconnected families in the file: the first is the tree's root, the others beside it. */
    families?: number;
  };
}

export interface ImportTreeOptions {
  /** The title of the new tree (default: the file's own title). */
  title?: string;
  /** "plumtree", "prunetree", "heirloom", "gedcom" or "sims4"; the server detects it when left out. */
  format?: string;
  /** A Sims 4 save's household to import (decimal id; default: the save's active household). */
  household?: string;
  /** The chosen file's name: a GEDCOM file without a title of its own is named after it. */
  fileName?: string;
  /** Upload progress, 0 to 1; called with 1 once the whole file is sent. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export const IMPORT_ERROR = "Unknown error occurred importing the tree";

function detailOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { errors?: { detail?: unknown }[] };
    const detail = parsed.errors?.[0]?.detail;
    return typeof detail === "string" ? detail : null;
  } catch {
    return null;
  }
}

export interface UploadOptions {
  /** Upload progress, 0 to 1; called with 1 once the whole file is sent. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** More request headers (an If-Match, say). */
  headers?: Record<string, string>;
}

/**
 * Sends a file's bytes as they are (POST, application/octet-stream unless the file says its type)
 * and reads the JSON answer. XMLHttpRequest rather than fetch, so that upload progress can be
 * shown. A 403 logs out as api() does; other errors are thrown as ApiRequestError (with the
 * server's detail) without a toast: the caller shows them where the upload was started.
 */
export function uploadFile<T>(url: string, file: Blob, options: UploadOptions = {}): Promise<T> {
  const token = getToken();
  if (!token) return Promise.reject(new ApiRequestError(401, NOT_LOGGED_IN));
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("authorization", `Bearer ${token}`);
    xhr.setRequestHeader("content-type", file.type || "application/octet-stream");
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        options.onProgress?.(event.loaded / event.total);
    };
    xhr.upload.onload = () => options.onProgress?.(1);
    xhr.onerror = () => reject(new ApiRequestError(0, null));
    xhr.onabort = () => reject(new DOMException("The upload was cancelled", "AbortError"));
    xhr.onload = () => {
      if (xhr.status === 403) {
        clearToken();
        notify.warning(SESSION_EXPIRED);
        onSessionExpired();
        reject(new ApiRequestError(403, SESSION_EXPIRED));
        return;
      }
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiRequestError(xhr.status, detailOf(xhr.responseText)));
        return;
      }
      try {
        resolve(JSON.parse(xhr.responseText) as T);
      } catch {
        reject(new ApiRequestError(xhr.status, null));
      }
    };
    options.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** Uploads a backup (a ZIP or a GEDCOM file) or a game save as a new tree (see uploadFile). */
export function importTree(file: Blob, options: ImportTreeOptions = {}): Promise<TreeImportResult> {
  const query = new URLSearchParams();
  if (options.title) query.set("title", options.title);
  if (options.format) query.set("format", options.format);
  if (options.fileName) query.set("fileName", options.fileName);
  if (options.household) query.set("household", options.household);
  const url = `/api/trees/import${query.size > 0 ? `?${query.toString()}` : ""}`;
  return uploadFile<TreeImportResult>(url, file, {
    onProgress: options.onProgress,
    signal: options.signal,
  });
}

export type ExportFormat = "zip" | "gedcom";

const EXPORT_ERROR = "Unknown error occurred exporting the tree";

/** The file name in a Content-Disposition header (filename* first), if any. */
export function dispositionFilename(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name || null;
}

/**
 * Downloads a tree's backup ZIP or GEDCOM file with the bearer token (a plain link could not
 * send it) and hands it to the browser as a download. Errors raise the usual toast.
 */
export async function downloadExport(
  treeId: string,
  format: ExportFormat,
): Promise<{ blob: Blob; filename: string }> {
  const token = getToken();
  if (!token) {
    notify.error(NOT_LOGGED_IN);
    throw new ApiRequestError(401, NOT_LOGGED_IN);
  }
  const path = `/api/trees/${encodeURIComponent(treeId)}/export?format=${format}`;
  let response: Response;
  try {
    response = await fetch(path, { headers: { authorization: `Bearer ${token}` } });
  } catch {
    notify.error(EXPORT_ERROR, "export");
    throw new ApiRequestError(0, null);
  }
  if (response.status === 403) {
    clearToken();
    notify.warning(SESSION_EXPIRED);
    onSessionExpired();
    throw new ApiRequestError(403, SESSION_EXPIRED);
  }
  if (!response.ok) {
    const detail = await readDetail(response);
    notify.error(detail ?? EXPORT_ERROR, "export");
    throw new ApiRequestError(response.status, detail);
  }
  notify.resolved("export");
  const blob = await response.blob();
  const filename =
    dispositionFilename(response.headers.get("content-disposition")) ??
    `family-tree.${format === "zip" ? "zip" : "ged"}`;
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { blob, filename };
}

/**
 * Every distinct avatar of one of the user's trees at `size`, as data: URIs by image name, in one
 * request (GET /api/trees/{treeId}/avatars). Silent: the image export falls back to fetching the
 * avatars one by one when this fails.
 */
export async function fetchTreeAvatars(
  treeId: string,
  size: "100x100" | "200x200",
): Promise<Record<string, string>> {
  const path = `/api/trees/${encodeURIComponent(treeId)}/avatars?size=${size}`;
  const { avatars } = await api<{ avatars: Record<string, string> }>(path, { silent: true });
  return avatars;
}
