-- AlterTable
ALTER TABLE "Person" ADD COLUMN     "gameId" TEXT;
