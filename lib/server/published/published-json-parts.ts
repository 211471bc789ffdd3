// A publication's JSON text in bounded parts, and its gzip made from them a part at a time (issue 22,
// finding 3). Shared by the server in front of Next (lib/server/front/public-pages.ts) and the
// route handler of GET /api/published/{id}, so it imports nothing server-only.
//
// A large publication is about 100 MB of JSON (100,000 Sims). Read as one text, the request thread
// decoded it in one step (2.7 s measured on the shared machine), then encoded it again to bytes;
// read in parts, each step is one part: decoding it, encoding it, its CRC-32, and handing it to
// zlib, which deflates in libuv's thread pool.
import type { ServerResponse } from "node:http";
import zlib from "node:zlib";
import { PUBLISHED_SNAPSHOT_SQL } from "../sql/reads";

/** The bytes of JSON text in one part (one row): 1 MiB, give or take a character. */
export const PUBLISHED_PART_BYTES = 1 << 20;
/** The most one part holds: its ends are moved to the next character, at most 3 bytes on. */
export const PUBLISHED_PART_MAX_BYTES = PUBLISHED_PART_BYTES + 3;

/** `at`, moved forward to the first byte of a UTF-8 character (a part must be valid text). */
const characterStart = (at: string) => `CASE
      WHEN ${at} >= length(j."bytes") THEN length(j."bytes")
      WHEN get_byte(j."bytes", ${at}) & 192 <> 128 THEN ${at}
      WHEN get_byte(j."bytes", ${at} + 1) & 192 <> 128 THEN ${at} + 1
      WHEN get_byte(j."bytes", ${at} + 2) & 192 <> 128 THEN ${at} + 2
      ELSE ${at} + 3 END`;

/**
 * $1 treeId, $2 publishedAt in epoch milliseconds → PUBLISHED_SNAPSHOT_SQL's text (the very
 * statement, so the bytes are its own) as rows `part`, in order, each `partBytes` bytes of UTF-8
 * (at most 3 more: a cut inside a character moves to its end); no row when that publication is not the current one. The text is
 * made once (OFFSET 0 keeps it from being inlined into every row) and each part is a slice of its
 * bytes, so the parts cost the database one copy of the text, not one scan per part.
 */
export function publishedPartsSql(partBytes = PUBLISHED_PART_BYTES): string {
  if (!Number.isSafeInteger(partBytes) || partBytes < 4) throw new Error("partBytes: 4 or more");
  return `
  SELECT convert_from(substring(j."bytes" FROM s."from" + 1 FOR s."to" - s."from"), 'UTF8') AS "part"
  FROM (
    SELECT convert_to(snapshot."json", 'UTF8') AS "bytes"
    FROM (${PUBLISHED_SNAPSHOT_SQL}) snapshot
    OFFSET 0
  ) j
  CROSS JOIN LATERAL (
    SELECT k, ${characterStart(`k * ${partBytes}`)} AS "from",
      ${characterStart(`(k + 1) * ${partBytes}`)} AS "to"
    FROM generate_series(0, (length(j."bytes") - 1) / ${partBytes}) k
  ) s
  ORDER BY s.k`;
}

export const PUBLISHED_PARTS_SQL = publishedPartsSql();

/**
 * A publication's JSON without its closing brace, as the start of one gzip body: the gzip header
 * and the text deflated up to a sync flush (byte-aligned, no final block), with the text's CRC-32
 * and length, so that any ending can be deflated and appended per request (gzipWithTail).
 * Browsers read only the first member of a multi-member gzip body, so the body stays one member.
 */
export interface GzipStart {
  gzipped: Buffer;
  crc: number;
  bytes: number;
  /**
   * Where each part's deflate data begins in `gzipped`, and at last its length: each part ends
   * with a full flush (byte-aligned, the dictionary reset), so a part inflates on its own
   * (writePlainInParts) and a reader who refuses gzip is sent one part at a time.
   */
  restarts: number[];
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

/** Lets timers, I/O and other requests run between two steps of a long job. */
const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The gzip start (above) of the text `parts` make together, without the last part's final
 * character (the closing brace). One part at a time on this thread (encoded, CRC-32, written to
 * zlib, whose deflate runs in libuv's thread pool), the parts let go as they are written, and
 * between two parts the event loop runs: no step handles more than one part. Made once per
 * publication, so it is worth the better compression (level 6).
 */
export async function gzipStartOfParts(parts: string[]): Promise<GzipStart> {
  const deflate = zlib.createDeflateRaw({ level: 6, chunkSize: 64 * 1024 });
  const out: Buffer[] = [GZIP_HEADER];
  let length = GZIP_HEADER.length;
  deflate.on("data", (chunk: Buffer) => {
    out.push(chunk);
    length += chunk.length;
  });
  const failed = new Promise<never>((_, reject) => deflate.once("error", reject));
  failed.catch(() => undefined);
  const restarts = [length];
  let crc = 0;
  let bytes = 0;
  try {
    for (let i = 0; i < parts.length; i++) {
      let text = parts[i]!;
      parts[i] = "";
      if (i === parts.length - 1) text = text.slice(0, -1);
      const plain = Buffer.from(text);
      crc = zlib.crc32(plain, crc);
      bytes += plain.length;
      deflate.write(plain);
      // A full flush after every part: byte-aligned and the dictionary reset, so each part
      // inflates on its own; the last one is also the sync flush gzipWithTail continues from.
      await Promise.race([
        new Promise<void>((resolve) => deflate.flush(zlib.constants.Z_FULL_FLUSH, () => resolve())),
        failed,
      ]);
      // The flushed output is emitted before the flush's callback; let it arrive, and let the
      // event loop run before the next part.
      await yieldToOthers();
      restarts.push(length);
    }
  } finally {
    deflate.close();
  }
  return { gzipped: Buffer.concat(out, length), crc: crc >>> 0, bytes, restarts };
}

/** The gzip body of `start` ended with `tail`: its last deflate block and the gzip trailer. */
export function gzipWithTail(start: GzipStart, tail: string): Buffer[] {
  const plain = Buffer.from(tail);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(zlib.crc32(plain, start.crc) >>> 0, 0);
  trailer.writeUInt32LE((start.bytes + plain.length) % 2 ** 32, 4);
  return [start.gzipped, zlib.deflateRawSync(plain), trailer];
}

/** zlib.inflateRaw as a promise (looked up at each call, so that a test can watch it). */
const inflateRaw = (buffer: Buffer, options: zlib.ZlibOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    zlib.inflateRaw(buffer, options, (error, result) => (error ? reject(error) : resolve(result))),
  );

/** A queue that lets one task run at a time. */
function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = last.then(task, task);
    last = run.catch(() => undefined);
    return run;
  };
}

/**
 * One part is inflated at a time in the whole process, whoever reads: a reader who refuses gzip
 * costs one thread of libuv's pool at most, however many ask at once, and the request thread
 * keeps its core (four inflations at once on a 2-core machine took it away for 300-750 ms).
 */
const inflateOneAtATime = oneAtATime();

/** Resolves when `res` can take more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

/**
 * Sends the text of `start` then `tail`, uncompressed, one part at a time: a part is inflated
 * (in libuv's pool, one in the process at a time), written, and the next one waits until the
 * reader has taken it (backpressure), so a reader holds at most one part in memory and a slow one
 * holds back nobody else. Ends `res`, or destroys it on a failure.
 */
export async function writePlainInParts(
  res: ServerResponse,
  start: GzipStart,
  tail: string,
): Promise<void> {
  try {
    for (let i = 0; i + 1 < start.restarts.length; i++) {
      if (res.destroyed) return;
      const part = start.gzipped.subarray(start.restarts[i], start.restarts[i + 1]);
      const plain = await inflateOneAtATime(() =>
        // One output chunk the size of a whole part: one callback, and no copy to join chunks.
        inflateRaw(part, {
          finishFlush: zlib.constants.Z_SYNC_FLUSH,
          chunkSize: PUBLISHED_PART_MAX_BYTES,
        }),
      );
      if (res.destroyed) return;
      if (!res.write(plain)) await drained(res);
    }
    res.end(tail);
  } catch {
    res.destroy();
  }
}
