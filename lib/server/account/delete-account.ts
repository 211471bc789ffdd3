import "server-only";
import { db } from "@/lib/server/db";
import { verifyCurrentPassword } from "./verify-current-password";

/**
 * Deletes the account after checking its password. The database cascades to its trees, people,
 * uploads, published copies and reset tokens; its tokens then get 403 as the user is gone.
 */
export async function deleteAccount(
  username: string,
  { password }: { password: string },
): Promise<{ message: string }> {
  await verifyCurrentPassword(username, password, "Your password is incorrect");
  await db.user.delete({ where: { id: username } });
  return { message: `Account ${username} has now been deleted` };
}
