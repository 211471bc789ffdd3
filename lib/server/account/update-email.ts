import "server-only";
import { db } from "@/lib/server/db";
import { toUserResponse } from "./serialize";

/** Changes the account's email address (already validated and lower-cased by the schema). */
export async function updateEmail(
  username: string,
  { email }: { email: string },
): Promise<{ email: string; _id: string }> {
  const user = await db.user.update({
    where: { id: username },
    data: { email },
    select: { id: true, email: true },
  });
  return toUserResponse(user);
}
