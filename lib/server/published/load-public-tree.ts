import "server-only";
import { notFound } from "next/navigation";
import { cache } from "react";
import {
  publicPageModelOfJson,
  type PublicPageModel,
  type PublicPageWanted,
} from "@/lib/public-tree/page-model";
import type { PublishedTreeView } from "@/lib/schemas/published";
import { objectId } from "@/lib/schemas/common";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { PUBLISHED_HEAD_SQL } from "@/lib/server/sql/reads";
import { runInWorker } from "@/lib/server/workers/pool";
import { getPublishedTreeJson } from "./get-published-tree";

/**
 * Publications up to this much JSON text have their page worked out on the request thread (a few
 * milliseconds); larger ones in the worker pool, so that the request thread never parses, lays
 * out or pages a large tree (issue 22, finding 3: 2.5 s for 100,000 Sims).
 */
export const PAGE_INLINE_CHARS = 512 * 1024;

/** What the public pages' bar and link preview show. */
export type PublicHead = Pick<
  PublishedTreeView,
  "_id" | "title" | "description" | "cover" | "lastPublishDate"
>;

async function orNotFound<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  }
}

/** The published tree's head, read once per request; not published → the 404 page. */
export const loadPublicHead = cache(async (treeId: string): Promise<PublicHead> => {
  if (!objectId.safeParse(treeId).success) notFound();
  const rows = await db.$queryRawUnsafe<{ json: string }[]>(PUBLISHED_HEAD_SQL, treeId);
  if (!rows[0]) notFound();
  return JSON.parse(rows[0].json) as PublicHead;
});

/**
 * What one public page draws of the publication (lib/public-tree/page-model.ts), once per
 * request; not published → the 404 page. The publication is read as PostgreSQL's JSON text and
 * never parsed on the request thread when it is large.
 */
export const loadPublicPage = cache(
  async (treeId: string, kind: PublicPageWanted["kind"], page = 1): Promise<PublicPageModel> => {
    const json = await orNotFound(() => getPublishedTreeJson(treeId));
    const wanted: PublicPageWanted = kind === "list" ? { kind, page } : { kind };
    if (json.length <= PAGE_INLINE_CHARS) return publicPageModelOfJson(json, wanted);
    return runInWorker("publicPage", { json, wanted });
  },
);
