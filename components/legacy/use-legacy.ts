"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/client/api";
import type { LegacySettings, UpdateLegacyBody } from "@/lib/legacy/settings";

const LEGACY_ERROR = "Unknown error occurred saving the legacy";

/**
 * The legacy's settings of the owner's tree (GET /api/trees/{id}/legacy), and their writes with
 * If-Match (a 409 shows the server's sentence and reads the settings again). Null until read, and
 * for a read-only view.
 */
export function useLegacy(treeId: string, enabled: boolean) {
  const [settings, setSettings] = useState<LegacySettings | null>(null);
  const etag = useRef<string | null>(null);
  const path = `/api/trees/${encodeURIComponent(treeId)}/legacy`;
  const read = useCallback(async () => {
    // silent: without the settings the root's Sim founds (offline, say), as before issue 33
    const answer = await api<LegacySettings>(path, {
      silent: true,
      onHeaders: (headers) => (etag.current = headers.get("etag")),
    });
    setSettings(answer);
  }, [path]);
  useEffect(() => {
    if (enabled) read().catch(() => undefined);
  }, [enabled, read]);
  const save = useCallback(
    async (change: UpdateLegacyBody) => {
      try {
        const answer = await api<LegacySettings>(path, {
          method: "PUT",
          body: change,
          fallback: LEGACY_ERROR,
          headers: etag.current ? { "if-match": etag.current } : {},
          onHeaders: (headers) => (etag.current = headers.get("etag") ?? etag.current),
        });
        setSettings(answer);
        return true;
      } catch {
        await read().catch(() => undefined);
        return false;
      }
    },
    [path, read],
  );
  return { settings, save };
}
