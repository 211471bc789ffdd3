// The first file part of a multipart/form-data body, streamed (issue 32, finding 14: `curl -F
// file=@Slot_00000003.save` was read as the raw body, and refused as "not a Sims 4 save").
//
// A small parser of our own (RFC 7578 over RFC 2046's delimiters): the busboy in node_modules is
// 0.3.1, there only for a test tool (s3rver), and its dicer 0.3.0 crashes the process on a
// malformed header (CVE-2022-24434); Request.formData() holds the whole body in memory. This one
// holds at most one chunk, the delimiter's length and one part's headers (MAX_HEADER_BYTES) at a
// time, whatever the body's size; the caller counts and caps the bytes as before.
import "server-only";
import { ApiError } from "@/lib/server/http/errors";

/** Bytes of one part's header block; a longer one is refused. */
export const MAX_HEADER_BYTES = 16 * 1024;
/** Parts read before the file part (form fields); more are refused. */
export const MAX_PARTS = 100;

export const EXPECTED_FILE =
  "Send the file as the request body, or as a file part of a multipart/form-data upload (curl -F file=@Slot_00000003.save).";
export const NO_FILE_PART = `The upload's form holds no file. ${EXPECTED_FILE}`;
const TOO_MANY_HEADERS = `A part of the upload's form has more than ${MAX_HEADER_BYTES / 1024} KB of headers.`;
export const BAD_MULTIPART = `The upload's form is damaged or incomplete. ${EXPECTED_FILE}`;

/** The boundary of a multipart/form-data Content-Type, null for any other type. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType) return null;
  const [type, ...params] = contentType.split(";");
  if (type!.trim().toLowerCase() !== "multipart/form-data") return null;
  for (const param of params) {
    const eq = param.indexOf("=");
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== "boundary") continue;
    let value = param.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2)
      value = value.slice(1, -1);
    // RFC 2046: 1 to 70 characters
    if (value.length >= 1 && value.length <= 70) return value;
  }
  throw new ApiError(
    400,
    `A multipart/form-data upload needs a boundary in its Content-Type. ${EXPECTED_FILE}`,
  );
}

interface PartHeaders {
  name: string | null;
  fileName: string | null;
}

/** The name and filename of a part's Content-Disposition (filename* of RFC 5987 included). */
export function readPartHeaders(block: string): PartHeaders {
  const out: PartHeaders = { name: null, fileName: null };
  for (const line of block.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== "content-disposition") continue;
    const params = line.slice(colon + 1);
    const re = /;\s*([A-Za-z*]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;
    for (let m = re.exec(params); m; m = re.exec(params)) {
      const key = m[1]!.toLowerCase();
      let value = m[2]!.trim();
      if (value.startsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, "$1");
      if (key === "name") out.name = value;
      else if (key === "filename" && out.fileName === null) out.fileName = value;
      else if (key === "filename*") {
        const ext = /^[^']*'[^']*'(.*)$/.exec(value);
        try {
          out.fileName = decodeURIComponent(ext ? ext[1]! : value);
        } catch {
          // a malformed extended name: the plain filename, if any, stands
        }
      }
    }
  }
  return out;
}

type State = "preamble" | "delimiter" | "headers" | "body" | "done";

/**
 * Feeds a multipart/form-data body chunk by chunk (`push`, then `end`): the bytes of the first
 * part that carries a file name (or, failing that, is named "file") go to `write`, everything else
 * is dropped as it passes. `end` throws a 400 saying what was expected when the body held no such
 * part, or stopped inside it.
 */
export class FirstFilePart {
  private readonly delimiter: Buffer;
  private state: State = "preamble";
  /** Bytes not yet consumed: never more than the delimiter, a chunk and one header block. */
  private pending: Buffer;
  private parts = 0;
  private inFile = false;
  fileName: string | null = null;
  found = false;

  /** True once the file part has ended: nothing after it is needed. */
  get complete(): boolean {
    return this.found && this.state === "done";
  }

  constructor(
    boundary: string,
    private readonly write: (bytes: Uint8Array) => Promise<void>,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, "latin1");
    // the first delimiter may open the body without the CRLF before it
    this.pending = Buffer.from("\r\n", "latin1");
  }

  async push(chunk: Uint8Array): Promise<void> {
    if (this.state === "done") return;
    this.pending =
      this.pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.pending, chunk]);
    await this.run();
  }

  /** The body ended: checks that a whole file part was read. */
  end(): void {
    if (this.state === "body" && this.inFile) throw new ApiError(400, BAD_MULTIPART);
    if (!this.found)
      throw new ApiError(
        400,
        this.parts === 0 && this.state !== "done" ? BAD_MULTIPART : NO_FILE_PART,
      );
  }

  private async run(): Promise<void> {
    for (;;) {
      switch (this.state) {
        case "preamble": {
          const at = this.pending.indexOf(this.delimiter);
          if (at < 0) {
            this.keepTail();
            return;
          }
          this.pending = this.pending.subarray(at + this.delimiter.length);
          this.state = "delimiter";
          break;
        }
        case "delimiter": {
          // "--" closes the body; otherwise optional blanks, then CRLF, then the part's headers
          if (this.pending.length < 2) return;
          if (this.pending[0] === 0x2d && this.pending[1] === 0x2d) {
            this.state = "done";
            this.pending = Buffer.alloc(0);
            return;
          }
          const crlf = this.pending.indexOf("\r\n");
          if (crlf < 0) {
            if (this.pending.length > 256) throw new ApiError(400, BAD_MULTIPART);
            return;
          }
          if (this.pending.subarray(0, crlf).toString("latin1").trim() !== "")
            throw new ApiError(400, BAD_MULTIPART);
          this.pending = this.pending.subarray(crlf + 2);
          this.parts += 1;
          if (this.parts > MAX_PARTS) throw new ApiError(400, NO_FILE_PART);
          this.state = "headers";
          break;
        }
        case "headers": {
          const end = this.pending.indexOf("\r\n\r\n");
          // a part without headers starts its body at once
          const empty =
            this.pending.length >= 2 && this.pending[0] === 0x0d && this.pending[1] === 0x0a;
          if (end < 0 && !empty) {
            if (this.pending.length > MAX_HEADER_BYTES) throw new ApiError(400, TOO_MANY_HEADERS);
            return;
          }
          const blockEnd = empty ? 0 : end;
          if (blockEnd > MAX_HEADER_BYTES) throw new ApiError(400, TOO_MANY_HEADERS);
          const headers = readPartHeaders(this.pending.subarray(0, blockEnd).toString("utf8"));
          this.pending = this.pending.subarray(blockEnd + (empty ? 2 : 4));
          this.inFile = !this.found && (headers.fileName !== null || headers.name === "file");
          if (this.inFile) {
            this.found = true;
            this.fileName = headers.fileName;
          }
          this.state = "body";
          break;
        }
        case "body": {
          const at = this.pending.indexOf(this.delimiter);
          if (at < 0) {
            // everything but what could be the start of the delimiter is the part's
            const keep = Math.min(this.pending.length, this.delimiter.length - 1);
            const ready = this.pending.subarray(0, this.pending.length - keep);
            if (this.inFile && ready.length > 0) await this.write(ready);
            this.pending = Buffer.from(this.pending.subarray(this.pending.length - keep));
            return;
          }
          if (this.inFile && at > 0) await this.write(this.pending.subarray(0, at));
          this.pending = this.pending.subarray(at + this.delimiter.length);
          if (this.inFile) {
            // the file part is whole: the rest of the body is not read into anything
            this.inFile = false;
            this.state = "done";
            this.pending = Buffer.alloc(0);
            return;
          }
          this.state = "delimiter";
          break;
        }
        case "done":
          return;
      }
    }
  }

  private keepTail(): void {
    const keep = Math.min(this.pending.length, this.delimiter.length - 1);
    this.pending = Buffer.from(this.pending.subarray(this.pending.length - keep));
  }
}
