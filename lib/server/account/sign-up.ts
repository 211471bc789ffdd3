import "server-only";
import type { SignupBody } from "@/lib/schemas/account";
import { hashPassword } from "@/lib/server/auth/password";
import { createSession } from "@/lib/server/auth/session";
import { Prisma, db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";

const usernameTaken = () => new ApiError(409, "That username is taken");

/** Creates an account and signs it in. Usernames are case sensitive; emails may be shared. */
export async function signUp({
  username,
  email,
  password,
}: SignupBody): Promise<{ token: string }> {
  // Checked first so a taken name costs no argon2 hash; the unique key still settles races.
  const existing = await db.user.findUnique({ where: { id: username }, select: { id: true } });
  if (existing) throw usernameTaken();
  const passwordHash = await hashPassword(password);
  try {
    const user = await db.user.create({
      data: { id: username, email, passwordHash },
      select: { id: true, accountId: true },
    });
    return { token: await createSession(user) };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw usernameTaken();
    }
    throw error;
  }
}
