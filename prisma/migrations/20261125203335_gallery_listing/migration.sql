-- Issue 25 (ADR 028): the Gallery. A publication can be listed (the owner's choice) and hidden (an
-- operator's); "shown" is both at once, which the listing's indexes start with. A tile's title,
-- description, cover, Sims and generations are columns of their own, so that a page of tiles
-- never reads a (possibly megabytes large) snapshot. GalleryTerm holds a listed publication's
-- search words, found by prefix. Existing publications are not listed (their owners never chose
-- to be); their tile columns are filled from their snapshots below.

-- AlterTable
ALTER TABLE "PublishedTree" ADD COLUMN     "cover" TEXT,
ADD COLUMN     "description" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "generations" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "hiddenAt" TIMESTAMP(3),
ADD COLUMN     "listed" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "shown" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "sims" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "title" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "GalleryTerm" (
    -- bytewise order (C), so that a word's prefix range uses the plain btree index below; Prisma's
    -- schema has no column collations, and the schema engine leaves them alone
    "term" TEXT COLLATE "C" NOT NULL,
    "treeId" TEXT NOT NULL,
    "field" SMALLINT NOT NULL,

    CONSTRAINT "GalleryTerm_pkey" PRIMARY KEY ("treeId","field","term")
);

-- CreateIndex
CREATE INDEX "GalleryTerm_term_field_treeId_idx" ON "GalleryTerm"("term", "field", "treeId");

-- CreateIndex
CREATE INDEX "PublishedTree_shown_publishedAt_treeId_idx" ON "PublishedTree"("shown", "publishedAt", "treeId");

-- CreateIndex
CREATE INDEX "PublishedTree_shown_viewCount_treeId_idx" ON "PublishedTree"("shown", "viewCount", "treeId");

-- AddForeignKey
ALTER TABLE "GalleryTerm" ADD CONSTRAINT "GalleryTerm_treeId_fkey" FOREIGN KEY ("treeId") REFERENCES "PublishedTree"("treeId") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill the tile columns of existing publications from their snapshots.
UPDATE "PublishedTree" p SET
  "title" = COALESCE(p."tree" ->> 'title', ''),
  "description" = COALESCE(p."tree" ->> 'description', ''),
  "cover" = p."tree" ->> 'cover',
  "sims" = jsonb_array_length(p."people"),
  "generations" = COALESCE((
    WITH RECURSIVE level(node, depth) AS (
      SELECT p."tree" -> 'data', 1
      UNION ALL
      SELECT c.value, level.depth + 1
      FROM level, jsonb_array_elements(
        CASE WHEN jsonb_typeof(level.node -> 'children') = 'array'
          THEN level.node -> 'children' ELSE '[]'::jsonb END) c
    ) SELECT max(depth) FROM level), 0);
