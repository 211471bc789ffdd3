-- Versions of a tree (issue 34): the tree as it was before each Sims 4 sync or restore (its
-- structure, people and heirs, with their versions), kept beside the tree so that one click brings
-- it back. Bounded per tree by the app (lib/server/trees/versions.ts); gone with the tree.

-- CreateTable
CREATE TABLE "TreeVersion" (
    "id" TEXT NOT NULL,
    "treeId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "detailsVersion" INTEGER NOT NULL,
    "data" JSONB NOT NULL,
    "people" JSONB NOT NULL,
    "heirs" JSONB NOT NULL,
    "sims" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TreeVersion_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "TreeVersion_treeId_createdAt_idx" ON "TreeVersion"("treeId", "createdAt");

-- AddForeignKey
ALTER TABLE "TreeVersion" ADD CONSTRAINT "TreeVersion_treeId_fkey" FOREIGN KEY ("treeId") REFERENCES "Tree"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- As "TreeChunk"."data": lz4 where built in, otherwise stored without compression.
DO $$
BEGIN
  ALTER TABLE "TreeVersion" ALTER COLUMN "data" SET COMPRESSION lz4;
  ALTER TABLE "TreeVersion" ALTER COLUMN "people" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  ALTER TABLE "TreeVersion" ALTER COLUMN "data" SET STORAGE EXTERNAL;
  ALTER TABLE "TreeVersion" ALTER COLUMN "people" SET STORAGE EXTERNAL;
END $$;
