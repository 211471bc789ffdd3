import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ApiError } from "@/lib/server/http/errors";
import { getPublishedTree } from "./get-published-tree";

/** The published snapshot for the public pages, read once per request; not published → 404 page. */
export const loadPublicTree = cache(async (treeId: string) => {
  try {
    return await getPublishedTree(treeId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  }
});
