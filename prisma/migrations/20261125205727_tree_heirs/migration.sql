-- AlterTable
ALTER TABLE "Tree" ADD COLUMN     "heirs" JSONB NOT NULL DEFAULT '[]';
