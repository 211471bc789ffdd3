import "server-only";
import {
  FORGOT_USERNAME_PER_EMAIL,
  FORGOT_USERNAME_PER_IP,
  enforceRateLimit,
} from "@/lib/server/rate-limit";
import { queueMail } from "./mail-jobs";

export const USERNAMES_SENT = "If any accounts use that address, we've emailed their usernames.";

/**
 * Queues one mail listing every username registered to the address. The request does the same
 * work whether or not any account uses it and never waits for the mail (issue 22.7).
 */
export async function sendUsername(
  { email }: { email: string },
  ip: string,
): Promise<{ message: string }> {
  await enforceRateLimit(FORGOT_USERNAME_PER_IP, ip);
  await enforceRateLimit(FORGOT_USERNAME_PER_EMAIL, email);
  await queueMail({ kind: "username-reminder", email });
  return { message: USERNAMES_SENT };
}
