import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError } from "@/lib/server/errors";

/**
 * Marks the named images as in use by a tree or person of `ownerId`, so the temporary-upload
 * cleanup keeps them. An image that this owner never uploaded is refused with 400.
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
  const temporary = found.filter((u) => u.status === "TEMP").map((u) => u.id);
  if (temporary.length > 0) {
    await tx.upload.updateMany({ where: { id: { in: temporary } }, data: { status: "USED" } });
  }
}
