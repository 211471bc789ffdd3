-- Issue 22.5 and 22.7: links that undo an email change (mailed to the old address), and the queue
-- of account mails that requests add to and a background sender works off.

-- CreateTable
CREATE TABLE "EmailRestoreToken" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "changedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EmailRestoreToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "MailJob" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "runAfter" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sender" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "MailJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "EmailRestoreToken_tokenHash_key" ON "EmailRestoreToken"("tokenHash");

-- CreateIndex
CREATE INDEX "EmailRestoreToken_userId_idx" ON "EmailRestoreToken"("userId");

-- CreateIndex
CREATE INDEX "MailJob_runAfter_idx" ON "MailJob"("runAfter");

-- AddForeignKey
ALTER TABLE "EmailRestoreToken" ADD CONSTRAINT "EmailRestoreToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
