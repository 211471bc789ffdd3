import "server-only";
import {
  FORGOT_PASSWORD_PER_IP,
  FORGOT_PASSWORD_PER_USERNAME,
  enforceRateLimit,
} from "@/lib/server/rate-limit";
import { queueMail } from "./mail-jobs";

export const PASSWORD_RESET_REQUESTED =
  "If that account exists, we've emailed a link to reset its password.";

/**
 * Queues a one-time reset link for the account's address. The request does the same work whether
 * or not the account exists (two counters and one queued job) and never waits for the mail, so
 * neither its answer nor its timing tells (issue 22.7); the sender makes the link (mail-jobs.ts).
 * Earlier links stay valid until they expire or one of them is used.
 */
export async function requestPasswordReset(
  { username }: { username: string },
  ip: string,
): Promise<{ message: string }> {
  await enforceRateLimit(FORGOT_PASSWORD_PER_IP, ip);
  await enforceRateLimit(FORGOT_PASSWORD_PER_USERNAME, username);
  await queueMail({ kind: "password-reset", username });
  return { message: PASSWORD_RESET_REQUESTED };
}
