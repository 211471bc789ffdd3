import "server-only";
import { getEnv } from "@/lib/env";
import { db } from "@/lib/server/db";
import { sendMail } from "@/lib/server/mail";
import {
  FORGOT_USERNAME_PER_EMAIL,
  FORGOT_USERNAME_PER_IP,
  enforceRateLimit,
} from "@/lib/server/rate-limit";
import { usernameReminderEmail } from "./emails";

export const USERNAMES_SENT = "If any accounts use that address, we've emailed their usernames.";

/** Emails every username registered to the address (one mail); the answer never says if any are. */
export async function sendUsername(
  { email }: { email: string },
  ip: string,
): Promise<{ message: string }> {
  await enforceRateLimit(FORGOT_USERNAME_PER_IP, ip);
  await enforceRateLimit(FORGOT_USERNAME_PER_EMAIL, email);
  const users = await db.user.findMany({
    where: { email },
    select: { id: true },
    orderBy: { createdAt: "asc" },
  });
  if (users.length > 0) {
    await sendMail(
      usernameReminderEmail({
        to: email,
        usernames: users.map((u) => u.id),
        appUrl: getEnv().APP_URL,
      }),
    );
  }
  return { message: USERNAMES_SENT };
}
