-- Issue 12.1 and 13.2 (ADR 003): tokens name a random account id and a session row instead of
-- {username, sessionVersion}. The default fills each existing account with its own id (a
-- volatile default is evaluated per row). No session rows exist yet, so every token issued before
-- this migration is refused with 403: each player signs in once more.

-- AlterTable
ALTER TABLE "User" DROP COLUMN "sessionVersion",
ADD COLUMN     "accountId" TEXT NOT NULL DEFAULT (gen_random_uuid())::text;

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "issuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Session_userId_issuedAt_idx" ON "Session"("userId", "issuedAt");

-- CreateIndex
CREATE UNIQUE INDEX "User_accountId_key" ON "User"("accountId");

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
