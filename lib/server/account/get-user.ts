import "server-only";
import { db } from "@/lib/server/db";
import { toUserResponse } from "./serialize";

/** The signed-in user's account info: {email, _id}. */
export async function getUser(username: string): Promise<{ email: string; _id: string }> {
  const user = await db.user.findUniqueOrThrow({
    where: { id: username },
    select: { id: true, email: true },
  });
  return toUserResponse(user);
}
