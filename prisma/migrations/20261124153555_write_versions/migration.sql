-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- AlterTable
ALTER TABLE "Tree" ADD COLUMN     "detailsVersion" INTEGER NOT NULL DEFAULT 1;
