// The backup archive's tar (ADR 033), on node-tar (ADR 047): node-tar encodes and parses the
// headers (ustar, pax for long names and large sizes, checksums, base-256 numbers); this file keeps
// what a backup needs beyond a tar: a pull-based reader (an entry's bytes are read before the next
// entry, in bounded memory), and its refusals — every unsafe name, every kind of entry but regular
// files (directories are skipped), a compressed tar inside the gzip, a damaged header, an oversized
// pax header, and a cut-off archive — and a writer that fails a torn file. Members are written
// 0600, without owner names. Loaded by the server in front of Next and by the scripts: no
// "server-only" import.
import { once } from "node:events";
import { Header, Pack, Parser, ReadEntry, type WriteEntryTar } from "tar";

/** A pax header holds a path and a size: far less than this. */
const MAX_PAX_BYTES = 64 * 1024;
/** Every member's mode: private to the operator, whoever unpacks the archive with GNU tar. */
const MEMBER_MODE = 0o600;

/** One file to write: its name in the archive, its size, and its bytes (exactly `size` of them). */
export interface TarSource {
  name: string;
  size: number;
  /** Modification time; defaults to now. */
  mtime?: Date;
  bytes: () => AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** Refuses a name that could leave the folder it is extracted into. */
export function assertSafeEntryName(name: string): void {
  const unsafe =
    name.length === 0 ||
    name.length > 1_000 ||
    name.startsWith("/") ||
    name.includes("\\") ||
    /[\u0000-\u001f\u007f]/.test(name) ||
    name.split("/").some((part) => part === ".." || part === "." || part === "");
  if (unsafe) throw new Error(`Unsafe name in the archive: ${JSON.stringify(name.slice(0, 120))}`);
}

const asBuffer = (chunk: Uint8Array) =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/**
 * The archive's bytes (uncompressed), entry by entry. A source that yields more or fewer bytes
 * than it declared fails the archive: a backup must never hold a torn file. Each source is read
 * whole before the next is asked for, and no faster than the archive is consumed.
 */
export async function* writeTar(
  sources: AsyncIterable<TarSource> | Iterable<TarSource>,
): AsyncGenerator<Buffer> {
  // portable: no owner ids or names, no atime/ctime (the archive says nothing of the host).
  // Each member's writer (node-tar's WriteEntryTar), handed over as Pack makes it.
  let member: WriteEntryTar | undefined;
  const pack = new Pack({
    portable: true,
    onWriteEntry: (made) => (member = made as unknown as WriteEntryTar),
  });
  const stop = new AbortController();
  let failure: Error | undefined;
  const produced = (async () => {
    try {
      for await (const source of sources) {
        assertSafeEntryName(source.name);
        // A member made by hand: node-tar's Pack writes its header (with a pax header when the
        // name or size do not fit ustar) and its padding, and pipes its bytes as they come.
        const entry = new ReadEntry(
          new Header({
            path: source.name,
            type: "File",
            mode: MEMBER_MODE,
            size: source.size,
            mtime: source.mtime ?? new Date(),
          }),
        );
        pack.add(entry);
        const writer = member!;
        let written = 0;
        for await (const chunk of source.bytes()) {
          written += chunk.length;
          if (written > source.size) break;
          if (!entry.write(asBuffer(chunk))) await once(entry, "drain", { signal: stop.signal });
        }
        if (written !== source.size) {
          throw new Error(
            `${source.name} changed while it was archived (${written} of ${source.size} bytes)`,
          );
        }
        entry.end();
        // One member in Pack's queue at a time: Pack counts every queued member as a running job
        // and starts no job past four (`jobs`), not even the next one in line, so members queued
        // faster than the archive is read (empty files behind a large one, a slow gzip) stalled
        // it for good. Waiting for this member to be read whole also keeps one in memory.
        if (!writer.emittedEnd) await once(writer, "end", { signal: stop.signal });
      }
      pack.end();
    } catch (error) {
      failure = error instanceof Error ? error : new Error(String(error));
      // Without the error: a Minipass destroyed with one nobody listens for throws it.
      pack.destroy();
    }
  })();
  try {
    for await (const chunk of pack) {
      if (failure) break;
      yield chunk;
    }
  } catch (error) {
    // The pack destroyed by a failed source ("stream destroyed"): the source's error is the one.
    if (!failure) throw error;
  } finally {
    // A consumer that stops early (a failed destination) must not leave the sources open.
    stop.abort();
    pack.destroy();
    await produced;
  }
  if (failure) throw failure;
}

/** One file read from an archive; `bytes` must be read to the end (or not at all) before the next. */
export interface TarEntry {
  name: string;
  size: number;
  bytes: () => AsyncIterable<Buffer>;
}

/** node-tar's warnings (every one refuses the archive), in the operator's words. */
function refusal(code: string, message: string): Error {
  if (code === "TAR_BAD_ARCHIVE" && /Truncated/.test(message)) {
    return new Error("The archive is cut off");
  }
  if (code === "TAR_ENTRY_INVALID" || code === "TAR_BAD_ARCHIVE") {
    return new Error(`The archive has a damaged header (${message})`);
  }
  return new Error(`The archive is unreadable (${code}: ${message})`);
}

/** The first bytes of a gzip and of a zstd stream, which node-tar would decompress itself. */
const COMPRESSED = [Buffer.from([0x1f, 0x8b]), Buffer.from([0x28, 0xb5, 0x2f, 0xfd])];

/**
 * The regular files of an archive, in order. Directories are skipped; other kinds refused. Chunks
 * are pulled from `chunks` only as an entry's bytes (or the next header) are needed.
 */
export async function* readTar(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<TarEntry> {
  const source = chunks[Symbol.asyncIterator]();
  let failure: Error | undefined;
  let sawEnd = false;
  let sourceDone = false;
  let first = true;
  const waiting: ReadEntry[] = [];
  const parser = new Parser({ maxMetaEntrySize: MAX_PAX_BYTES });
  parser.on("entry", (entry: ReadEntry) => waiting.push(entry));
  parser.on("eof", () => (sawEnd = true));
  parser.on("warn", (code: string, message: string) => (failure ??= refusal(code, message)));
  parser.on("error", (error: Error) => (failure ??= refusal("TAR_ABORT", error.message)));
  // An oversized pax header, or an entry type node-tar does not know (a volume label, …).
  parser.on("ignoredEntry", (entry: ReadEntry) => {
    failure ??= entry.meta
      ? new Error("The archive has an oversized pax header")
      : new Error(`The archive holds an entry of a kind a backup never has (${entry.path})`);
  });

  /** Feeds one more chunk to the parser; false once the archive's bytes are all in. */
  const pump = async (): Promise<boolean> => {
    if (failure) throw failure;
    if (sourceDone) return false;
    const next = await source.next();
    if (next.done) {
      sourceDone = true;
      parser.end();
    } else {
      const chunk = asBuffer(next.value);
      if (first && chunk.length > 0) {
        first = false;
        // A tar's first bytes are a name; these would make node-tar decompress a second time.
        if (COMPRESSED.some((magic) => chunk.subarray(0, magic.length).equals(magic))) {
          failure = new Error("The archive has a damaged header (a compressed tar inside)");
        }
      }
      if (!failure) parser.write(chunk);
    }
    if (failure) throw failure;
    return true;
  };
  /** Reads the source until `entry` has ended (its bytes thrown away). */
  const skip = async (entry: ReadEntry) => {
    entry.resume();
    while (!entry.emittedEnd) {
      if (!(await pump())) throw new Error("The archive is cut off");
    }
  };

  try {
    for (;;) {
      while (waiting.length === 0 && !sawEnd) {
        if (!(await pump())) break;
      }
      if (failure) throw failure;
      const entry = waiting.shift();
      if (!entry) {
        if (sawEnd) return;
        throw new Error("The archive is cut off (no end marker)");
      }
      const name = entry.path;
      if (entry.type === "Directory") {
        await skip(entry);
        continue;
      }
      if (entry.type !== "File" && entry.type !== "OldFile") {
        throw new Error(`The archive holds an entry of a kind a backup never has (${name})`);
      }
      assertSafeEntryName(name);
      const size = entry.size;
      if (!Number.isSafeInteger(size) || size < 0) {
        throw new Error("The archive has a damaged header");
      }
      let consumed = false;
      let finished = false;
      yield {
        name,
        size,
        bytes: async function* () {
          if (consumed) throw new Error(`${name} was read already`);
          consumed = true;
          for (;;) {
            const chunk = entry.read();
            if (chunk !== null) {
              yield chunk;
              continue;
            }
            if (entry.emittedEnd) break;
            if (!(await pump())) throw new Error("The archive is cut off");
          }
          finished = true;
        },
      };
      if (!consumed) await skip(entry);
      else if (!finished) throw new Error(`${name} was not read to the end`);
    }
  } finally {
    // Stopped early (a refusal, or a reader that had what it needed): the source is let go.
    if (!sourceDone) await source.return?.();
  }
}
