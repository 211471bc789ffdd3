"use client";
import { MAX_UPLOAD_BYTES, UPLOAD_TYPES, type UPLOAD_DIRS } from "@/lib/schemas/upload";
import { api, ApiRequestError } from "./api";
import { notify } from "./toast";

export type UploadDir = (typeof UPLOAD_DIRS)[number];

export const UPLOAD_FALLBACK = "Unknown error occurred uploading your file";
export const CROP_FALLBACK = "Unknown error occurred while cropping image";
export const WRONG_FILE_TYPE = "File must be a JPG or PNG";
export const FILE_TOO_LARGE = "Files must be under 10MB in size";

/** The client-side upload rules (SPEC.md section 5): the problem's text, or null when fine. */
export function checkUploadFile(file: { type: string; size: number }): string | null {
  if (!(UPLOAD_TYPES as readonly string[]).includes(file.type)) return WRONG_FILE_TYPE;
  if (file.size > MAX_UPLOAD_BYTES) return FILE_TOO_LARGE;
  return null;
}

export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The crop call takes whole pixels; a crop box never starts before the image or is empty. */
export function toCropData(area: CropArea): CropArea {
  return {
    x: Math.max(0, Math.round(area.x)),
    y: Math.max(0, Math.round(area.y)),
    width: Math.max(1, Math.round(area.width)),
    height: Math.max(1, Math.round(area.height)),
  };
}

function readDetail(xhr: XMLHttpRequest): string | null {
  try {
    const body = JSON.parse(xhr.responseText) as { errors?: { detail?: unknown }[] };
    const detail = body.errors?.[0]?.detail;
    return typeof detail === "string" ? detail : null;
  } catch {
    return null;
  }
}

/** Upload problems share one toast, closed by the next successful upload. */
const UPLOAD_TOPIC = "upload";

/**
 * Sends the file to its signed upload URL. This is the one raw request of the client: fetch cannot
 * report upload progress, XMLHttpRequest can. The URL carries its own signature, so no bearer
 * token is sent (it may point at another host), and a 403 here is not a session expiry.
 */
function putFile(
  uploadURL: string,
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", uploadURL);
    xhr.setRequestHeader("Content-Type", file.type);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        notify.resolved(UPLOAD_TOPIC);
        resolve();
        return;
      }
      const detail = readDetail(xhr);
      notify.error(detail ?? UPLOAD_FALLBACK, UPLOAD_TOPIC);
      reject(new ApiRequestError(xhr.status, detail));
    };
    xhr.onerror = () => {
      notify.error(UPLOAD_FALLBACK, UPLOAD_TOPIC);
      reject(new ApiRequestError(0, null));
    };
    xhr.onabort = () => reject(new DOMException("Upload aborted", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/**
 * Checks the file, asks for a signed URL, uploads to it, reporting progress from 0 to 1, and has
 * the server confirm it (a file PUT to a presigned bucket URL is checked only then; one PUT to
 * Heirloom was checked already, and its confirm just answers its name). Resolves with the stored
 * file name; every failure has already been shown in a toast.
 */
export async function uploadImage(
  file: File,
  dir: UploadDir,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const problem = checkUploadFile(file);
  if (problem) {
    notify.error(problem, UPLOAD_TOPIC);
    throw new ApiRequestError(400, problem);
  }
  const query = new URLSearchParams({ type: file.type, dir });
  const { filename, uploadURL } = await api<{ filename: string; uploadURL: string }>(
    `/api/upload/url?${query.toString()}`,
    { fallback: UPLOAD_FALLBACK, signal },
  );
  await putFile(uploadURL, file, onProgress, signal);
  const confirmed = await api<{ filename: string }>("/api/upload/confirm", {
    method: "PUT",
    body: { image: filename },
    fallback: UPLOAD_FALLBACK,
    signal,
  });
  return confirmed.filename;
}

/** Crops a stored image; resolves with the new file's name ("Image cropped" is the caller's). */
export async function cropImage(image: string, area: CropArea): Promise<string> {
  const { filename } = await api<{ filename: string }>("/api/upload/crop", {
    method: "PUT",
    body: { cropData: toCropData(area), image },
    fallback: CROP_FALLBACK,
  });
  return filename;
}
