// A loopback SMTP server that catches what the app sends, plus a small MIME reader for the
// messages (and for the dev outbox's .eml files), so tests can follow the links in real mail.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** Envelope recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

interface Part {
  headers: Map<string, string>;
  body: string;
}

function splitHeaders(source: string): Part {
  const match = /\r?\n\r?\n/.exec(source);
  const head = match ? source.slice(0, match.index) : source;
  const body = match ? source.slice(match.index + match[0].length) : "";
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  const text = value.replace(/=\r?\n/g, "");
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(text[i] ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** Decodes RFC 2047 encoded words (=?UTF-8?Q?…?= / =?UTF-8?B?…?=) in a header. */
function decodeHeader(value: string): string {
  return value.replace(/=\?[^?]+\?([QB])\?([^?]*)\?=/gi, (_m, encoding: string, data: string) =>
    encoding.toUpperCase() === "B"
      ? Buffer.from(data, "base64").toString("utf8")
      : decodeQuotedPrintable(data.replace(/_/g, " ")),
  );
}

function leaves(part: Part): { type: string; content: string }[] {
  const type = part.headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith("multipart/") && boundary) {
    return part.body
      .split(`--${boundary}`)
      .slice(1)
      .filter((chunk) => !chunk.startsWith("--"))
      .flatMap((chunk) => leaves(splitHeaders(chunk.replace(/^\r?\n/, ""))));
  }
  const encoding = (part.headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  const content =
    encoding === "base64"
      ? Buffer.from(part.body.replace(/\s+/g, ""), "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(part.body)
        : part.body;
  return [{ type: type.split(";")[0]!.trim().toLowerCase(), content }];
}

/** Reads a raw RFC 822 message into its subject, sender and decoded text and HTML bodies. */
export function parseMail(raw: string, envelopeTo: string[] = []): ReceivedMail {
  const root = splitHeaders(raw);
  const parts = leaves(root);
  const to =
    envelopeTo.length > 0
      ? envelopeTo
      : (root.headers.get("to") ?? "")
          .split(",")
          .map((a) => (/<([^>]+)>/.exec(a)?.[1] ?? a).trim());
  return {
    to: to.map((a) => a.toLowerCase()),
    from: decodeHeader(root.headers.get("from") ?? ""),
    subject: decodeHeader(root.headers.get("subject") ?? ""),
    text: parts.find((p) => p.type === "text/plain")?.content ?? "",
    html: parts.find((p) => p.type === "text/html")?.content ?? "",
    raw,
  };
}

/** The first address in `text` that contains `pathPart`, e.g. "/reset-password?". */
export function findLink(text: string, pathPart: string): URL {
  const found = text.match(/https?:\/\/[^\s"'<>]+/g)?.find((link) => link.includes(pathPart));
  if (!found) throw new Error(`No link containing ${pathPart} in:\n${text}`);
  return new URL(found);
}

export interface MailCatcher {
  /** smtp://127.0.0.1:<port>, to use as SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /**
   * Resolves with the first message for `to`, already received or yet to come. `since` skips the
   * messages received before that index (pass `messages.length` taken before the request).
   */
  waitForMail(to: string, options?: { since?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** Starts an SMTP server on 127.0.0.1 and a random port that accepts and keeps every message. */
export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: ReceivedMail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const envelope = session.envelope.rcptTo.map((r) => r.address);
        messages.push(parseMail(Buffer.concat(chunks).toString("utf8"), envelope));
        for (const wake of waiting) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  function waitForMail(
    to: string,
    { since = 0, timeoutMs = 10_000 }: { since?: number; timeoutMs?: number } = {},
  ): Promise<ReceivedMail> {
    const address = to.toLowerCase();
    const find = () => messages.slice(since).find((m) => m.to.includes(address));
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (!found) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`No mail to ${to} arrived within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiting.delete(check);
      };
      waiting.add(check);
      check();
    });
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
