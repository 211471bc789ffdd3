import "server-only";
import { db } from "@/lib/server/db";
import { galleryChanged } from "./gallery-cache";
import { termsOf } from "./terms";

/** $1 treeId, $2 words, $3 their fields: adds a publication's search words (ADR 028). */
const INSERT_TERMS_SQL = `
  INSERT INTO "GalleryTerm" ("term", "treeId", "field")
  SELECT w.term, p."treeId", w.field
  FROM unnest($2::text[], $3::smallint[]) AS w(term, field), "PublishedTree" p
  WHERE p."treeId" = $1
  ON CONFLICT DO NOTHING`;

/**
 * Lists or unlists a publication in the Gallery. Listing indexes the words of the current
 * snapshot (its title, the names of its Sims and its description); unlisting deletes them. Every
 * Gallery page this process keeps is dropped at once. Answers whether the tree is now listed.
 */
export async function setGalleryListing(treeId: string, listed: boolean): Promise<boolean> {
  if (!listed) {
    await db.$transaction([
      db.publishedTree.updateMany({ where: { treeId }, data: { listed: false, shown: false } }),
      db.galleryTerm.deleteMany({ where: { treeId } }),
    ]);
    galleryChanged();
    return false;
  }
  const rows = await db.$queryRaw<{ title: string; description: string; names: string[] }[]>`
    SELECT p."title", p."description",
      COALESCE((
        SELECT array_agg(concat_ws(' ', s ->> 'firstName', s ->> 'lastName'))
        FROM jsonb_array_elements(p."people") s
      ), ARRAY[]::text[]) AS "names"
    FROM "PublishedTree" p WHERE p."treeId" = ${treeId}`;
  const source = rows[0];
  if (!source) return false;
  const terms = termsOf(source);
  await db.$transaction([
    db.galleryTerm.deleteMany({ where: { treeId } }),
    db.$executeRawUnsafe(
      INSERT_TERMS_SQL,
      treeId,
      terms.map((t) => t.term),
      terms.map((t) => t.field),
    ),
    db.$executeRaw`
      UPDATE "PublishedTree" SET "listed" = true, "shown" = "hiddenAt" IS NULL
      WHERE "treeId" = ${treeId}`,
  ]);
  galleryChanged();
  return true;
}
