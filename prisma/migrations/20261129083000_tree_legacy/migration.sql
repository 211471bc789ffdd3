-- The legacy's settings (issue 33): founder and succession laws, kept beside the tree's structure
-- (like "heirs"), never inside it, with their own version for If-Match. Every existing tree gets
-- "{}": its root's Sim is the founder and no laws are chosen.

-- AlterTable
ALTER TABLE "Tree" ADD COLUMN     "legacy" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "legacyVersion" INTEGER NOT NULL DEFAULT 1;
