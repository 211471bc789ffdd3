// Playwright's web server: a fresh PostgreSQL database, a loopback SMTP sink that files every
// message under e2e.mailDir, then the production app exactly as `npm start` runs it.
import fs from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { e2e } from "./config";

async function recreateDatabase() {
  const admin = new pg.Client({ connectionString: `${e2e.postgresUrl}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${e2e.database}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${e2e.database}"`);
  await admin.end();
}

/** Enough MIME decoding for tests to read links: quoted-printable soft breaks and escapes. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

async function startSmtpSink() {
  await fs.rm(e2e.mailDir, { recursive: true, force: true });
  await fs.mkdir(e2e.mailDir, { recursive: true });
  let counter = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("error", (error) => callback(error));
      new Promise<void>((resolve) => stream.on("end", resolve))
        .then(async () => {
          counter += 1;
          const raw = Buffer.concat(chunks).toString("utf8");
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const subject = /^Subject: (.*)$/im.exec(raw)?.[1] ?? "";
          const record = {
            to,
            subject,
            text: decodeQuotedPrintable(raw),
            html: "",
            at: Date.now(),
          };
          const file = path.join(
            e2e.mailDir,
            `${Date.now()}-${String(counter).padStart(5, "0")}.json`,
          );
          // written whole, then named: a reader (support/mail.ts) never meets half a file
          await fs.writeFile(`${file}.part`, JSON.stringify(record));
          await fs.rename(`${file}.part`, file);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(e2e.smtpPort, "127.0.0.1", resolve));
}

await recreateDatabase();
await startSmtpSink();
Object.assign(process.env, {
  NODE_ENV: "production",
  PORT: String(e2e.port),
  APP_URL: e2e.baseURL,
  SIGNUPS_PER_ADDRESS_HOUR: "100000",
  SIGNUPS_PER_ADDRESS_DAY: "100000", // all from 127.0.0.1
  TREES_PER_ACCOUNT_HOUR: "100000", // xss.spec makes a tree per payload
  DATABASE_URL: e2e.databaseUrl,
  SMTP_URL: `smtp://127.0.0.1:${e2e.smtpPort}`,
  MAIL_FROM: "Heirloom <no-reply@heirloom.test>",
  DATA_DIR: `.data/e2e-${e2e.port}`,
});
await import("../../../scripts/start");
