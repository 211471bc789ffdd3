"use client";
import { useEffect, useState, type ReactNode } from "react";
import { preload } from "react-dom";
import { api } from "@/lib/client/api";
import type { PublishedSnapshot } from "@/lib/schemas/published";
import { PublicTreeView } from "./public-tree-view";

/**
 * Loads the published snapshot (immutable, cached for a year at an address that changes with
 * each publish) and draws it on the canvas. Until then, and without JavaScript, `children` (the
 * first generations, rendered by the server) fill the place.
 */
export function PublicTreeLoader({
  snapshotUrl,
  children,
}: {
  snapshotUrl: string;
  children: ReactNode;
}) {
  // Asked for while the page's scripts are still loading.
  preload(snapshotUrl, { as: "fetch", crossOrigin: "anonymous" });
  const [loaded, setLoaded] = useState<{ snapshot: PublishedSnapshot; personId: string | null }>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    api<PublishedSnapshot>(snapshotUrl, {
      auth: false,
      fallback: "Unknown error occurred",
      signal: controller.signal,
    }).then(
      // ?p= is read here, not on the server, so that every reader shares one cached page.
      (snapshot) =>
        setLoaded({ snapshot, personId: new URLSearchParams(window.location.search).get("p") }),
      (error: unknown) => {
        if ((error as Error).name !== "AbortError") setFailed(true);
      },
    );
    return () => controller.abort();
  }, [snapshotUrl]);

  if (!loaded) {
    return (
      <div className="h-full" aria-busy={!failed}>
        {children}
      </div>
    );
  }
  return (
    <PublicTreeView
      tree={loaded.snapshot}
      people={loaded.snapshot.people}
      initialPersonId={loaded.personId}
    />
  );
}
