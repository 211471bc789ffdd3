// A small tar (POSIX ustar, with pax headers for long names and large sizes) writer and reader for
// backup archives (ADR 033). Only regular files are written; the reader accepts regular files and
// directories, refuses every other kind of entry and every unsafe name, and checks each header's
// checksum. Loaded by the server in front of Next and by the scripts: no "server-only" import.

const BLOCK = 512;
/** The largest size the 11 octal digits of a ustar header hold. */
const USTAR_MAX_SIZE = 8 ** 11 - 1;
/** A pax header holds a path and a size: far less than this. */
const MAX_PAX_BYTES = 64 * 1024;

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

function writeString(block: Buffer, offset: number, length: number, value: string): void {
  block.write(value, offset, Math.min(length, Buffer.byteLength(value)), "utf8");
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  writeString(block, offset, length, value.toString(8).padStart(length - 1, "0") + "\0");
}

function header(name: string, size: number, mtime: Date, type: "0" | "x"): Buffer {
  const block = Buffer.alloc(BLOCK);
  writeString(block, 0, 100, name);
  writeOctal(block, 100, 8, 0o600);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, Math.min(size, USTAR_MAX_SIZE));
  writeOctal(block, 136, 12, Math.floor(mtime.getTime() / 1000));
  block.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  block.write(type, 156, "latin1");
  block.write("ustar\u000000", 257, "latin1");
  let sum = 0;
  for (const byte of block) sum += byte;
  writeString(block, 148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
  return block;
}

/** A pax record "<length> <key>=<value>\n", whose length counts itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
  return `${length}${body}`;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/**
 * The archive's bytes (uncompressed), entry by entry. A source that yields more or fewer bytes
 * than it declared fails the archive: a backup must never hold a torn file.
 */
export async function* writeTar(sources: AsyncIterable<TarSource> | Iterable<TarSource>) {
  for await (const source of sources) {
    assertSafeEntryName(source.name);
    const mtime = source.mtime ?? new Date();
    const nameFits = Buffer.byteLength(source.name) <= 100;
    if (!nameFits || source.size > USTAR_MAX_SIZE) {
      const records =
        (nameFits ? "" : paxRecord("path", source.name)) +
        (source.size > USTAR_MAX_SIZE ? paxRecord("size", String(source.size)) : "");
      const pax = Buffer.from(records, "utf8");
      yield header("PaxHeader", pax.length, mtime, "x");
      yield pax;
      yield padding(pax.length);
    }
    const shortName = nameFits ? source.name : source.name.slice(-100).replace(/^[^/]*\//, "");
    yield header(shortName, source.size, mtime, "0");
    let written = 0;
    for await (const chunk of source.bytes()) {
      written += chunk.length;
      if (written > source.size) break;
      yield chunk;
    }
    if (written !== source.size) {
      throw new Error(
        `${source.name} changed while it was archived (${written} of ${source.size} bytes)`,
      );
    }
    yield padding(source.size);
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** One file read from an archive; `bytes` must be read to the end (or not at all) before the next. */
export interface TarEntry {
  name: string;
  size: number;
  bytes: () => AsyncIterable<Buffer>;
}

/** Reads exactly `n` bytes at a time from a stream of chunks. */
class ChunkReader {
  private buffered: Buffer[] = [];
  private length = 0;
  private done = false;
  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.length < n && !this.done) {
      const next = await this.source.next();
      if (next.done) this.done = true;
      else {
        const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
        this.buffered.push(chunk);
        this.length += chunk.length;
      }
    }
    return this.length >= n;
  }

  /** Exactly `n` bytes, or null at the end of the stream; a partial block is a cut-off archive. */
  async read(n: number): Promise<Buffer | null> {
    if (!(await this.fill(n))) {
      if (this.length === 0) return null;
      throw new Error("The archive is cut off");
    }
    const all = this.buffered.length === 1 ? this.buffered[0]! : Buffer.concat(this.buffered);
    this.buffered = all.length > n ? [all.subarray(n)] : [];
    this.length = all.length - n;
    return all.subarray(0, n);
  }

  /** Up to `max` bytes (at least one), for streaming a body; null at the end of the stream. */
  async readSome(max: number): Promise<Buffer | null> {
    if (!(await this.fill(1))) return null;
    return this.read(Math.min(max, this.length));
  }
}

function readString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? length : end).toString("utf8");
}

function readOctal(block: Buffer, offset: number, length: number): number {
  const text = readString(block, offset, length).trim();
  if (!/^[0-7]*$/.test(text)) throw new Error("The archive has a damaged header");
  return text === "" ? 0 : parseInt(text, 8);
}

function parsePax(records: string): Map<string, string> {
  const values = new Map<string, string>();
  let at = 0;
  while (at < records.length) {
    const space = records.indexOf(" ", at);
    const length = Number(records.slice(at, space));
    if (space === -1 || !Number.isInteger(length) || length <= 0) {
      throw new Error("The archive has a damaged pax header");
    }
    const record = records.slice(space + 1, at + length - 1);
    const equals = record.indexOf("=");
    values.set(record.slice(0, equals), record.slice(equals + 1));
    at += length;
  }
  return values;
}

/** The regular files of an archive, in order. Directories are skipped; other kinds refused. */
export async function* readTar(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<TarEntry> {
  const reader = new ChunkReader(chunks[Symbol.asyncIterator]());
  let pax = new Map<string, string>();
  for (;;) {
    const block = await reader.read(BLOCK);
    if (block === null) throw new Error("The archive is cut off (no end marker)");
    if (block.every((byte) => byte === 0)) return;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
    if (readOctal(block, 148, 8) !== sum) throw new Error("The archive has a damaged header");
    const type = String.fromCharCode(block[156]!);
    const prefix = readString(block, 345, 155);
    const ustarName = readString(block, 0, 100);
    const name = pax.get("path") ?? (prefix ? `${prefix}/${ustarName}` : ustarName);
    const size = Number(pax.get("size") ?? readOctal(block, 124, 12));
    pax = new Map();
    if (!Number.isSafeInteger(size) || size < 0)
      throw new Error("The archive has a damaged header");
    // Skipped in steps: a body is never held whole (a hostile entry may claim gigabytes).
    const skip = async () => {
      let left = size + padding(size).length;
      while (left > 0) {
        const chunk = await reader.read(Math.min(left, 1 << 20));
        if (chunk === null) throw new Error("The archive is cut off");
        left -= chunk.length;
      }
    };
    if (type === "x") {
      if (size > MAX_PAX_BYTES) throw new Error("The archive has an oversized pax header");
      const body = await reader.read(size + padding(size).length);
      if (body === null) throw new Error("The archive is cut off");
      pax = parsePax(body.subarray(0, size).toString("utf8"));
      continue;
    }
    if (type === "5") {
      await skip();
      continue;
    }
    if (type !== "0" && type !== "\0") {
      throw new Error(`The archive holds an entry of a kind a backup never has (${name})`);
    }
    assertSafeEntryName(name);
    let consumed = false;
    let finished = false;
    const entry: TarEntry = {
      name,
      size,
      bytes: async function* () {
        if (consumed) throw new Error(`${name} was read already`);
        consumed = true;
        let left = size;
        while (left > 0) {
          const chunk = await reader.readSome(Math.min(left, 1 << 20));
          if (chunk === null) throw new Error("The archive is cut off");
          left -= chunk.length;
          yield chunk;
        }
        if (size > 0) await reader.read(padding(size).length || 0);
        finished = true;
      },
    };
    yield entry;
    if (!consumed) await skip();
    else if (!finished) throw new Error(`${name} was not read to the end`);
  }
}
