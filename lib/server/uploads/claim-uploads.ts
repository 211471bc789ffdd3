import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/server/http/errors";

/**
 * Marks the named images as in use by a tree or person of `ownerId`, so the temporary-upload
 * cleanup and the collection of unused images keep them. An image that this owner never uploaded is refused with 400.
 */
export async function claimUploads(
  tx: Prisma.TransactionClient,
  ownerId: string,
  names: (string | null | undefined)[],
): Promise<void> {
  const wanted = [...new Set(names.filter((n): n is string => Boolean(n)))];
  if (wanted.length === 0) return;
  const found = await tx.upload.findMany({
    where: { id: { in: wanted }, ownerId, status: { in: ["TEMP", "USED"] } },
    select: { id: true, status: true },
  });
  if (found.length !== wanted.length) {
    throw new ApiError(400, "That image was not found. Please upload it again.");
  }
  // Every claimed row is written (TEMP becomes USED; USED gets a new updatedAt): the row lock and
  // the fresh updatedAt keep collectUnusedImages from sweeping an image this save is starting to
  // use, and a row swept since the read above is caught by the count.
  const claimed = await tx.upload.updateMany({
    where: { id: { in: wanted }, ownerId, status: { in: ["TEMP", "USED"] } },
    data: { status: "USED" },
  });
  if (claimed.count !== wanted.length) {
    throw new ApiError(400, "That image was not found. Please upload it again.");
  }
}
