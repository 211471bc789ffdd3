import "server-only";
import { db } from "@/lib/server/db";
import { galleryChanged } from "@/lib/server/gallery/gallery-cache";
import { logger } from "@/lib/server/logger";
import { deleteUploadFiles } from "@/lib/server/uploads/delete-upload-files";
import { verifyCurrentPassword } from "./verify-current-password";

/**
 * Deletes the account after checking its password. The database cascades to its trees, people,
 * uploads, published copies, reset tokens and sessions; its tokens then get 403 for good, even once
 * someone registers the username again (a new account has another account id, ADR 003).
 * The stored image files go too, once the rows are gone (a failure there is logged, not fatal:
 * nothing refers to those files any more).
 */
export async function deleteAccount(
  session: { id: string; sessionId: string },
  { password }: { password: string },
): Promise<{ message: string }> {
  const username = session.id;
  await verifyCurrentPassword(session, password, "Your password is incorrect");
  const uploads = await db.upload.findMany({ where: { ownerId: username }, select: { id: true } });
  await db.user.delete({ where: { id: username } });
  galleryChanged(); // its listed trees leave the Gallery at once (issue 25)
  await deleteUploadFiles(uploads.map((u) => u.id)).catch((error: unknown) =>
    logger.error({ err: error, username }, "could not delete an account's image files"),
  );
  return { message: `Account ${username} has now been deleted` };
}
