import "server-only";
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { getEnv } from "@/lib/env";
import { ApiError } from "./http/errors";
import { logger } from "./logger";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "./private-files";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

type Transporter = ReturnType<typeof nodemailer.createTransport>;

// Keyed by SMTP_URL, so a test that points SMTP_URL elsewhere (and calls resetEnvForTests) gets a
// fresh transport instead of the cached one.
let smtp: { url: string; transporter: Transporter } | undefined;
let composer: ReturnType<typeof createComposer> | undefined;

function smtpTransport(url: string): Transporter {
  if (smtp?.url !== url) {
    smtp?.transporter.close();
    smtp = { url, transporter: nodemailer.createTransport(url) };
  }
  return smtp.transporter;
}

function createComposer() {
  return nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
}

/** Without SMTP_URL, each message is written as an .eml file to the dev outbox. */
async function writeToOutbox(message: MailMessage & { from: string }): Promise<string> {
  composer ??= createComposer();
  const info = await composer.sendMail(message);
  const dir = getEnv().OUTBOX_DIR;
  // The account's own only (0700/0600, lib/server/private-files.ts): a message holds live links.
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = path.join(
    dir,
    `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`,
  );
  await fs.writeFile(file, info.message as Buffer, { mode: PRIVATE_FILE_MODE });
  return file;
}

/**
 * Sends one message through SMTP_URL, or to the dev outbox when SMTP_URL is not set. A delivery
 * failure is logged and becomes a 503, so the caller is never told a mail went out when it did not.
 */
export async function sendMail(message: MailMessage): Promise<void> {
  const env = getEnv();
  const mail = { ...message, from: env.MAIL_FROM };
  try {
    if (env.SMTP_URL) {
      await smtpTransport(env.SMTP_URL).sendMail(mail);
      logger.info({ subject: message.subject }, "mail sent");
    } else {
      const file = await writeToOutbox(mail);
      logger.info({ subject: message.subject, file }, "mail written to the dev outbox");
    }
  } catch (error) {
    logger.error({ err: error, subject: message.subject }, "mail delivery failed");
    throw new ApiError(
      503,
      "We couldn't send the email just now. Please try again in a few minutes.",
    );
  }
}
