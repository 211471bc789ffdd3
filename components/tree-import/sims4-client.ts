// Uploads of Sims 4 saves: the households list, a household's import and the sync of a tree. The
// bytes go as they are (XMLHttpRequest, for the upload's progress), like the other imports.
import { ApiRequestError, NOT_LOGGED_IN, SESSION_EXPIRED, type TreeImportResult } from "@/lib/client/api";
import { clearToken, getToken } from "@/lib/client/session-store";
import { notify } from "@/lib/client/toast";

export interface HouseholdChoice {
  id: string;
  name: string;
  members: number;
  family: number;
  preview: string[];
}

export interface SyncChanges {
  added: { _id: string; gameId: string; firstName: string; lastName: string }[];
  updated: { _id: string; gameId: string; firstName: string; lastName: string; fields: string[] }[];
  unchanged: number;
  notes: string[];
}

/** True when a file's name says it is a Sims 4 save or tray item. */
export const isSims4File = (name: string) => /\.(save|trayitem)$/i.test(name);

function detailOf(text: string): string | null {
  try {
    const body = JSON.parse(text) as { errors?: { detail?: unknown }[] };
    const detail = body.errors?.[0]?.detail;
    return typeof detail === "string" ? detail : null;
  } catch {
    return null;
  }
}

function upload<T>(
  url: string,
  file: Blob,
  options: { onProgress?: (fraction: number) => void; headers?: Record<string, string> } = {},
): Promise<T> {
  const token = getToken();
  if (!token) return Promise.reject(new ApiRequestError(401, NOT_LOGGED_IN));
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("authorization", `Bearer ${token}`);
    xhr.setRequestHeader("content-type", "application/octet-stream");
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.upload.onload = () => options.onProgress?.(1);
    xhr.onerror = () => reject(new ApiRequestError(0, null));
    xhr.onload = () => {
      if (xhr.status === 403) {
        clearToken();
        notify.warning(SESSION_EXPIRED);
        // a full navigation, as lib/client/api.ts does without the app shell's router
        // eslint-disable-next-line @next/next/no-location-assign-relative-destination
        window.location.assign("/login");
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
    xhr.send(file);
  });
}

export async function listHouseholds(file: Blob, onProgress?: (f: number) => void): Promise<HouseholdChoice[]> {
  const body = await upload<{ households: HouseholdChoice[] }>("/api/trees/import/households", file, { onProgress });
  return body.households;
}

export function importHousehold(
  file: Blob,
  household: string,
  options: { title?: string; onProgress?: (f: number) => void } = {},
): Promise<TreeImportResult> {
  const query = new URLSearchParams({ household, format: "sims4" });
  if (options.title) query.set("title", options.title);
  return upload<TreeImportResult>(`/api/trees/import?${query.toString()}`, file, { onProgress: options.onProgress });
}

export function syncTree(treeId: string, file: Blob): Promise<{ changes: SyncChanges }> {
  return upload(`/api/trees/${encodeURIComponent(treeId)}/import`, file);
}
