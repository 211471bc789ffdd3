import fs from "node:fs/promises";
import path from "node:path";
import { e2e } from "./config";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  at: number;
}

/** Waits for the newest mail to `to` that arrived after `since` (ms epoch). */
export async function readMail(to: string, since = 0, timeoutMs = 15_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  const address = to.toLowerCase();
  while (Date.now() < deadline) {
    // only whole mails: the sink writes each under another name first (support/serve.ts)
    const files = (await fs.readdir(e2e.mailDir).catch(() => []))
      .filter((file) => file.endsWith(".json"))
      .sort()
      .reverse();
    for (const file of files) {
      const mail = JSON.parse(
        await fs.readFile(path.join(e2e.mailDir, file), "utf8"),
      ) as ReceivedMail;
      if (mail.to.includes(address) && mail.at >= since) return mail;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((l) => l.startsWith(prefix));
  if (!link) throw new Error(`No link starting with ${prefix} in: ${mail.text}`);
  return link;
}
