import "server-only";
import { db, Prisma } from "@/lib/server/db";
import { INSERT_PUBLISHED_TREE, PUBLISHED_COPY_COLUMNS } from "@/lib/server/sql/publish";
import { notFound } from "@/lib/server/http/errors";
import { TREE_NOT_FOUND } from "@/lib/server/trees/get-tree";
import { serializePublishStatus } from "./get-publish-status";
import type { PublishStatus } from "@/lib/schemas/published";
import { storeOgImage } from "./og-image-file";
import { publicationChanged } from "./snapshot-url";
import { setGalleryListing } from "@/lib/server/gallery/set-listing";

export interface PublishOptions {
  /** List the publication in the Gallery; absent or false: not listed (issue 25). */
  publishToGallery?: boolean;
}

/**
 * Stores a snapshot of the owner's tree (title, description, cover, data) and its people as they
 * are now; re-publishing replaces the snapshot and keeps the view count. Then draws and stores the
 * tree's Open Graph card, so that link previews are served a file (ADR 014).
 *
 * One SQL statement copies the rows inside PostgreSQL: it sees one consistent snapshot of the tree
 * and its people, and the (possibly megabytes of) JSON never travels through Node (a 10,000-node
 * tree took seconds through Prisma). The copy's shape is lib/server/sql/publish.ts.
 */
export async function publishTree(
  ownerId: string,
  treeId: string,
  options: PublishOptions = {},
): Promise<PublishStatus> {
  const rows = await db.$queryRaw<
    { publishedAt: Date; viewCount: number; title: string; cover: string | null; sims: number }[]
  >`
    ${Prisma.raw(INSERT_PUBLISHED_TREE)}
    SELECT ${Prisma.raw(PUBLISHED_COPY_COLUMNS)}, CURRENT_TIMESTAMP::timestamp(3), CURRENT_TIMESTAMP
    FROM "Tree" t
    WHERE t."id" = ${treeId} AND t."ownerId" = ${ownerId} AND t."deletedAt" IS NULL
    ON CONFLICT ("treeId") DO UPDATE SET
      "tree" = EXCLUDED."tree",
      "people" = EXCLUDED."people",
      "title" = EXCLUDED."title",
      "description" = EXCLUDED."description",
      "cover" = EXCLUDED."cover",
      "sims" = EXCLUDED."sims",
      "generations" = EXCLUDED."generations",
      -- Never the same millisecond as the publication it replaces: the snapshot's address
      -- (ADR 014) is made from it. "PublishedTree" here is the row as the last publish left it,
      -- read after waiting for its lock, so publishes that overlap still get one address each (a
      -- subquery in the SELECT would read the snapshot from before the wait, and two overlapping
      -- publishes the same time).
      "publishedAt" = GREATEST(
        EXCLUDED."publishedAt", "PublishedTree"."publishedAt" + interval '1 millisecond'
      ),
      "updatedAt" = EXCLUDED."updatedAt"
    RETURNING "publishedAt", "viewCount", "title", "cover", "sims"`;
  const row = rows[0];
  if (!row) throw notFound(TREE_NOT_FOUND);
  // Published without the flag (as before the Gallery) is not listed (issue 25).
  const listed = await setGalleryListing(treeId, options.publishToGallery === true);
  publicationChanged(treeId);
  await storeOgImage(treeId, { title: row.title, cover: row.cover, sims: row.sims });
  return serializePublishStatus({ ...row, listed });
}
