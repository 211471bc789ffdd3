import "server-only";
import { threadId } from "node:worker_threads";
import { z } from "zod";
import { getEnv } from "@/lib/env";
import { db } from "@/lib/server/db";
import { logger } from "@/lib/server/logger";
import { sendMail } from "@/lib/server/mail";
import { emailChangedEmail, passwordResetEmail, usernameReminderEmail } from "./emails";
import {
  EMAIL_RESTORE_LIFETIME_MS,
  RESET_TOKEN_LIFETIME_MS,
  createResetToken,
  restoreEmailLink,
  resetPasswordLink,
} from "./reset-token";

/**
 * The account mails, sent off the request path (ADR 025). A request adds one row naming what to
 * send and to whom; the sender below reads the account, makes the link and sends. So
 * forgot-password and forgot-username do the same work whether or not the account exists, and
 * answer before any mail transport is touched (issue 22.7); a failed delivery is retried instead
 * of failing the request. The payload holds usernames and addresses only: each link's token is
 * made when its mail is sent, and only its hash is stored.
 */
export const mailJob = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("password-reset"), username: z.string() }),
  z.object({ kind: z.literal("username-reminder"), email: z.string() }),
  z.object({
    kind: z.literal("email-changed"),
    username: z.string(),
    oldEmail: z.string(),
    newEmail: z.string(),
  }),
]);
export type MailJobInput = z.infer<typeof mailJob>;

/** How long a sender may hold a claimed job before another may take it (a crash mid-send). */
const LEASE_SECONDS = 5 * 60;
/** Deliveries tried before a job is given up (logged): about 16 minutes of retries. */
export const MAIL_JOB_MAX_ATTEMPTS = 6;
const RETRY_BASE_MS = 30_000;
/** Jobs left by a crash, or retries due, are picked up at least this often once mail was queued. */
const POLL_MS = 60_000;

/**
 * Tests only: each test process sends its own jobs (to its own mail catcher), though the run's
 * processes share one database. Null in production, where any instance sends any job.
 */
const testing = () => getEnv().NODE_ENV === "test";
const sender = (): string | null => (testing() ? `${process.pid}:${threadId}` : null);

type MailJobRow = { id: string; kind: string; payload: unknown; attempts: number; createdAt: Date };
type Tx = Parameters<Parameters<typeof db.$transaction>[0]>[0];

/** Adds a mail job (inside `tx` when given: it is sent only if the transaction commits). */
export async function addMailJob(job: MailJobInput, tx?: Tx): Promise<void> {
  const { kind, ...payload } = job;
  const runAfter = state.held ? HELD_UNTIL : new Date();
  const { id } = await (tx ?? db).mailJob.create({
    data: { kind, payload, runAfter, sender: sender() },
    select: { id: true },
  });
  state.held?.add(id);
}

/** Adds a mail job and wakes the sender; the request does not wait for the mail. */
export async function queueMail(job: MailJobInput): Promise<void> {
  await addMailJob(job);
  wakeMailSender();
}

const state: {
  running: Promise<void> | undefined;
  again: boolean;
  /** Tests only: jobs added while held, not due until released. */
  held: Set<string> | undefined;
  poller: NodeJS.Timeout | undefined;
} = { running: undefined, again: false, held: undefined, poller: undefined };
const HELD_UNTIL = new Date("9999-01-01T00:00:00Z");

/**
 * Starts the sender on the next turn of the event loop (so the request that queued the mail
 * answers first), unless it is running already, in which case it takes one more look when done.
 */
export function wakeMailSender(): void {
  // Tests send by settleMailForTests(): no timer may touch a database a finished test dropped.
  if (!testing()) state.poller ??= setInterval(wakeMailSender, POLL_MS).unref();
  if (state.running) {
    state.again = true;
    return;
  }
  state.running = new Promise<void>((resolve) => setImmediate(resolve))
    .then(async () => {
      do {
        state.again = false;
        await sendDueMail();
      } while (state.again);
    })
    .catch((error: unknown) => logger.error({ err: error }, "the mail sender stopped"))
    .finally(() => {
      state.running = undefined;
    });
}

/** Claims the oldest due job for LEASE_SECONDS; other instances skip it meanwhile. */
async function claimJob(): Promise<MailJobRow | undefined> {
  const rows = await db.$queryRaw<MailJobRow[]>`
    UPDATE "MailJob" SET
      "attempts" = "attempts" + 1,
      "runAfter" = (now() AT TIME ZONE 'UTC') + ${LEASE_SECONDS}::float8 * interval '1 second'
    WHERE "id" = (
      SELECT "id" FROM "MailJob"
      WHERE "runAfter" <= now() AT TIME ZONE 'UTC' AND "sender" IS NOT DISTINCT FROM ${sender()}
      ORDER BY "createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED
    )
    RETURNING "id", "kind", "payload", "attempts", "createdAt"`;
  return rows[0];
}

/** Sends every due job, one at a time, until none is left. */
async function sendDueMail(): Promise<void> {
  for (;;) {
    const row = await claimJob();
    if (!row) return;
    try {
      await runJob(row);
      await db.mailJob.delete({ where: { id: row.id } });
    } catch (error) {
      if (row.attempts >= MAIL_JOB_MAX_ATTEMPTS) {
        logger.error({ err: error, kind: row.kind, jobId: row.id }, "mail job given up");
        await db.mailJob.delete({ where: { id: row.id } });
        continue;
      }
      const delay = RETRY_BASE_MS * 2 ** (row.attempts - 1);
      logger.warn({ err: error, kind: row.kind, jobId: row.id, delay }, "mail job will retry");
      await db.mailJob.update({
        where: { id: row.id },
        data: { runAfter: new Date(Date.now() + delay) },
      });
      if (!testing()) setTimeout(wakeMailSender, delay).unref();
    }
  }
}

async function runJob(row: MailJobRow): Promise<void> {
  const parsed = mailJob.safeParse({ ...(row.payload as object), kind: row.kind });
  if (!parsed.success) {
    logger.error({ kind: row.kind, jobId: row.id }, "mail job of an unknown shape dropped");
    return;
  }
  const job = parsed.data;
  const appUrl = getEnv().APP_URL;
  switch (job.kind) {
    case "password-reset": {
      const user = await db.user.findUnique({
        where: { id: job.username },
        select: { id: true, email: true },
      });
      if (!user) return;
      const { token, tokenHash } = createResetToken();
      const now = Date.now();
      await db.$transaction([
        db.passwordResetToken.deleteMany({
          where: { userId: user.id, expiresAt: { lte: new Date(now) } },
        }),
        db.passwordResetToken.create({
          data: { userId: user.id, tokenHash, expiresAt: new Date(now + RESET_TOKEN_LIFETIME_MS) },
        }),
      ]);
      await sendMail(
        passwordResetEmail({
          to: user.email,
          username: user.id,
          link: resetPasswordLink(appUrl, user.id, token),
          appUrl,
        }),
      );
      return;
    }
    case "username-reminder": {
      const users = await db.user.findMany({
        where: { email: job.email },
        select: { id: true },
        orderBy: { createdAt: "asc" },
      });
      if (users.length === 0) return;
      await sendMail(
        usernameReminderEmail({ to: job.email, usernames: users.map((u) => u.id), appUrl }),
      );
      return;
    }
    case "email-changed": {
      const user = await db.user.findUnique({ where: { id: job.username }, select: { id: true } });
      if (!user) return;
      const { token, tokenHash } = createResetToken();
      const now = Date.now();
      await db.$transaction([
        db.emailRestoreToken.deleteMany({
          where: { userId: user.id, expiresAt: { lte: new Date(now) } },
        }),
        db.emailRestoreToken.create({
          data: {
            userId: user.id,
            tokenHash,
            email: job.oldEmail,
            changedAt: row.createdAt,
            expiresAt: new Date(now + EMAIL_RESTORE_LIFETIME_MS),
          },
        }),
      ]);
      await sendMail(
        emailChangedEmail({
          to: job.oldEmail,
          username: user.id,
          newEmail: job.newEmail,
          link: restoreEmailLink(appUrl, user.id, token),
          appUrl,
        }),
      );
      return;
    }
  }
}

/**
 * For tests: while held, the jobs this process adds are not due, so a test can look at what a
 * request alone did; releasing makes them due and wakes the sender.
 */
export async function holdMailSenderForTests(hold: boolean): Promise<void> {
  if (hold) {
    state.held ??= new Set();
    return;
  }
  const ids = [...(state.held ?? [])];
  state.held = undefined;
  await db.mailJob.updateMany({ where: { id: { in: ids } }, data: { runAfter: new Date() } });
  wakeMailSender();
}

/** For tests: resolves once every job due now has been tried (sent, retried later, or dropped). */
export async function settleMailForTests(): Promise<void> {
  wakeMailSender();
  while (state.running) await state.running;
}
