// A defensive ZIP reader for backups that strangers upload. The central directory is read by hand
// (so every name, size and offset is checked before a single byte is inflated) and entries are
// inflated with fflate in small steps while the real output is counted, so a header that lies
// about its size cannot get a bomb past the caps.
import { Inflate } from "fflate";
import { ImportError } from "./types";

export interface ZipLimits {
  /** Most entries (files and folders) an archive may list. */
  maxEntries: number;
  /** Most bytes one entry may inflate to. */
  maxEntryBytes: number;
  /** Most bytes all entries together may inflate to. */
  maxTotalBytes: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 100_000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 512 * 1024 * 1024,
};

export interface ZipEntry {
  name: string;
  /** What the central directory says the entry inflates to (not trusted: see `read`). */
  declaredSize: number;
  compressedSize: number;
}

/**
 * Random access to an archive's bytes: the bytes in memory, or a file read piece by piece
 * (lib/server/import/read-import-body.ts), so an upload never has to be held whole in memory.
 * `read` answers at most `length` bytes from `at` (fewer at the end).
 */
export interface ZipSource {
  readonly length: number;
  read(at: number, length: number): Uint8Array;
}

/** What openZip reads: bytes in memory, or a ZipSource. */
export type ZipInput = Uint8Array | ZipSource;

function sourceOf(input: ZipInput): ZipSource {
  if (!(input instanceof Uint8Array)) return input;
  return {
    length: input.length,
    read: (at, length) => input.subarray(at, Math.min(at + length, input.length)),
  };
}

/** The whole input as bytes (a GEDCOM file is parsed whole anyway). */
export function bytesOf(input: ZipInput): Uint8Array {
  return input instanceof Uint8Array ? input : input.read(0, input.length);
}

export const NOT_A_ZIP = "This file is not a ZIP archive";
export const DAMAGED_ZIP =
  "The ZIP archive is damaged or incomplete (it may have been cut off while downloading). Please download it again.";

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
/** Compressed bytes handed to the inflater per step; deflate expands at most ~1032x, so ≤ 8 MB out. */
const INFLATE_STEP = 8 * 1024;
/** Compressed bytes read from the source at a time. */
const READ_STEP = 1024 * 1024;

const MB = 1024 * 1024;
const describeBytes = (n: number) => `${Math.round((n / MB) * 10) / 10} MB`;

let crcTable: Uint32Array | undefined;

/** CRC-32 as ZIP uses it (IEEE 802.3). */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const table = crcTable;
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const latin1 = new TextDecoder("latin1");

function decodeName(raw: Uint8Array, utf8Flag: boolean): string {
  if (utf8Flag || raw.every((b) => b < 0x80)) {
    try {
      return utf8.decode(raw);
    } catch {
      throw new ImportError("The ZIP archive has an entry whose name is not valid UTF-8");
    }
  }
  // Without the UTF-8 flag the name is CP437; its ASCII half is all a backup ever uses.
  return latin1.decode(raw);
}

/**
 * Refuses names that could escape a folder or mean something else on another system: absolute
 * paths, drive letters, backslashes, NUL and other control characters, and "." or ".." segments.
 */
export function checkEntryName(name: string): void {
  const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name);
  const refuse = (why: string) => {
    throw new ImportError(`The ZIP archive has an unsafe entry name ${shown}: ${why}`);
  };
  if (name.length === 0) refuse("it is empty");
  if (/[\u0000-\u001f\u007f]/.test(name)) refuse("it contains a control character");
  if (name.includes("\\")) refuse("it contains a backslash");
  if (name.startsWith("/")) refuse("it is an absolute path");
  if (/^[A-Za-z]:/.test(name)) refuse("it starts with a drive letter");
  const segments = (name.endsWith("/") ? name.slice(0, -1) : name).split("/");
  for (const segment of segments) {
    if (segment === "..") refuse("it climbs out of its folder (..)");
    if (segment === ".") refuse("it contains a '.' segment");
    if (segment === "") refuse("it contains an empty segment (//)");
  }
}

interface CentralEntry extends ZipEntry {
  method: number;
  crc: number;
  localOffset: number;
  rawName: Uint8Array;
}

/** An opened archive: entries are listed and checked up front and inflated on demand. */
export class ZipArchive {
  private readonly source: ZipSource;
  private readonly entries = new Map<string, CentralEntry>();
  private inflatedTotal = 0;

  constructor(
    input: ZipInput,
    readonly limits: ZipLimits = DEFAULT_ZIP_LIMITS,
  ) {
    this.source = sourceOf(input);
    this.readCentralDirectory();
  }

  /** File entries (folders excluded), in archive order. */
  list(): ZipEntry[] {
    return [...this.entries.values()]
      .filter((e) => !e.name.endsWith("/"))
      .map(({ name, declaredSize, compressedSize }) => ({ name, declaredSize, compressedSize }));
  }

  has(name: string): boolean {
    return this.entries.has(name) && !name.endsWith("/");
  }

  /** Inflates one entry, checking its real size against its header and the caps, and its CRC. */
  read(name: string): Uint8Array {
    const entry = this.entries.get(name);
    if (!entry || name.endsWith("/")) throw new ImportError(`The ZIP archive has no ${name}`);
    const start = this.dataStart(entry);
    const data =
      entry.method === 0
        ? this.source.read(start, entry.compressedSize)
        : this.inflate(entry, start, entry.declaredSize);
    if (data.length !== entry.declaredSize || crc32(data) !== entry.crc) {
      throw new ImportError(`${DAMAGED_ZIP} (${name} does not match its checksum)`);
    }
    if (entry.method === 0) this.count(entry, data.length);
    return data;
  }

  /** An entry as UTF-8 text (a byte-order mark is dropped). */
  readText(name: string): string {
    const bytes = this.read(name);
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    return text.startsWith("\uFEFF") ? text.slice(1) : text;
  }

  private count(entry: CentralEntry, produced: number): void {
    this.inflatedTotal += produced;
    if (this.inflatedTotal > this.limits.maxTotalBytes) {
      throw new ImportError(
        `The ZIP archive unpacks to more than ${describeBytes(this.limits.maxTotalBytes)}, more than a backup can hold (${entry.name})`,
      );
    }
  }

  private inflate(entry: CentralEntry, start: number, declared: number): Uint8Array {
    const chunks: Uint8Array[] = [];
    let produced = 0;
    const inflater = new Inflate((chunk) => {
      produced += chunk.length;
      if (produced > declared) {
        throw new ImportError(
          `${DAMAGED_ZIP} (${entry.name} unpacks to more than its header says: a ZIP bomb?)`,
        );
      }
      this.count(entry, chunk.length);
      chunks.push(chunk);
    });
    const size = entry.compressedSize;
    try {
      for (let read = 0; read < size; read += READ_STEP) {
        const piece = this.source.read(start + read, Math.min(READ_STEP, size - read));
        for (let offset = 0; offset < piece.length; offset += INFLATE_STEP) {
          const end = Math.min(offset + INFLATE_STEP, piece.length);
          inflater.push(piece.subarray(offset, end), read + end === size);
        }
      }
      if (size === 0) inflater.push(new Uint8Array(0), true);
    } catch (error) {
      if (error instanceof ImportError) throw error;
      throw new ImportError(`${DAMAGED_ZIP} (${entry.name} cannot be unpacked)`);
    }
    if (chunks.length === 1) return chunks[0]!;
    const out = new Uint8Array(produced);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }

  /** `length` bytes at `at` as a little-endian view; DAMAGED_ZIP when the file ends first. */
  private view(at: number, length: number): DataView {
    const bytes = this.source.read(at, length);
    if (bytes.length < length) throw new ImportError(DAMAGED_ZIP);
    return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private findEndOfCentralDirectory(): number {
    const size = this.source.length;
    const tailStart = Math.max(0, size - EOCD_SIZE - MAX_COMMENT);
    const tail = this.view(tailStart, size - tailStart);
    for (let at = tail.byteLength - EOCD_SIZE; at >= 0; at--) {
      if (
        tail.getUint32(at, true) === END_OF_CENTRAL_DIRECTORY &&
        at + EOCD_SIZE + tail.getUint16(at + 20, true) === tail.byteLength
      ) {
        return tailStart + at;
      }
    }
    return -1;
  }

  private readCentralDirectory(): void {
    const size = this.source.length;
    const first = size >= 4 ? this.view(0, 4).getUint32(0, true) : 0;
    const startsLikeZip = first === LOCAL_HEADER || first === END_OF_CENTRAL_DIRECTORY;
    if (!startsLikeZip) throw new ImportError(NOT_A_ZIP);
    const eocd = size >= EOCD_SIZE ? this.findEndOfCentralDirectory() : -1;
    if (eocd < 0) throw new ImportError(DAMAGED_ZIP);

    const end = this.view(eocd, EOCD_SIZE);
    const disk = end.getUint16(4, true);
    const cdDisk = end.getUint16(6, true);
    const onDisk = end.getUint16(8, true);
    const total = end.getUint16(10, true);
    const cdSize = end.getUint32(12, true);
    const cdOffset = end.getUint32(16, true);
    if (disk !== 0 || cdDisk !== 0 || onDisk !== total) {
      throw new ImportError("Split (multi-part) ZIP archives are not supported");
    }
    if (total === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
      throw new ImportError("ZIP64 archives are not supported; backups are far smaller than 4 GB");
    }
    if (total > this.limits.maxEntries) {
      throw new ImportError(
        `The ZIP archive lists ${total} entries; a backup may have at most ${this.limits.maxEntries}`,
      );
    }
    if (cdOffset + cdSize > eocd) throw new ImportError(DAMAGED_ZIP);

    let at = cdOffset;
    let declaredTotal = 0;
    for (let i = 0; i < total; i++) {
      if (at + 46 > eocd) throw new ImportError(DAMAGED_ZIP);
      const header = this.view(at, 46);
      if (header.getUint32(0, true) !== CENTRAL_HEADER) throw new ImportError(DAMAGED_ZIP);
      const flags = header.getUint16(8, true);
      const method = header.getUint16(10, true);
      const crc = header.getUint32(16, true);
      const compressedSize = header.getUint32(20, true);
      const declaredSize = header.getUint32(24, true);
      const nameLength = header.getUint16(28, true);
      const extraLength = header.getUint16(30, true);
      const commentLength = header.getUint16(32, true);
      const localOffset = header.getUint32(42, true);
      const next = at + 46 + nameLength + extraLength + commentLength;
      if (next > eocd) throw new ImportError(DAMAGED_ZIP);
      // A copy: a file source's buffer is its own, but an in-memory one is the caller's.
      const rawName = this.source.read(at + 46, nameLength).slice();
      const name = decodeName(rawName, (flags & 0x800) !== 0);
      at = next;

      checkEntryName(name);
      if (this.entries.has(name)) {
        throw new ImportError(`The ZIP archive lists ${JSON.stringify(name)} twice`);
      }
      if (flags & 0x1) throw new ImportError("Encrypted ZIP archives are not supported");
      if (compressedSize === 0xffffffff || declaredSize === 0xffffffff) {
        throw new ImportError(
          "ZIP64 archives are not supported; backups are far smaller than 4 GB",
        );
      }
      if (method !== 0 && method !== 8) {
        throw new ImportError(
          `${JSON.stringify(name)} uses a compression method this importer does not read (only stored and deflate)`,
        );
      }
      if (method === 0 && compressedSize !== declaredSize) throw new ImportError(DAMAGED_ZIP);
      if (declaredSize > this.limits.maxEntryBytes) {
        throw new ImportError(
          `${JSON.stringify(name)} unpacks to ${describeBytes(declaredSize)}; an entry may be at most ${describeBytes(this.limits.maxEntryBytes)}`,
        );
      }
      declaredTotal += declaredSize;
      if (declaredTotal > this.limits.maxTotalBytes) {
        throw new ImportError(
          `The ZIP archive unpacks to more than ${describeBytes(this.limits.maxTotalBytes)}, more than a backup can hold`,
        );
      }
      const entry: CentralEntry = {
        name,
        declaredSize,
        compressedSize,
        method,
        crc,
        localOffset,
        rawName,
      };
      // Where the data lies is checked now, so a truncated archive is refused before any work.
      const start = this.dataStart(entry);
      if (start + compressedSize > cdOffset) throw new ImportError(DAMAGED_ZIP);
      this.entries.set(name, entry);
    }
  }

  /** Where an entry's data starts, after its local header (whose name must match the directory's). */
  private dataStart(entry: CentralEntry): number {
    const at = entry.localOffset;
    if (at + 30 > this.source.length) throw new ImportError(DAMAGED_ZIP);
    const header = this.view(at, 30);
    if (header.getUint32(0, true) !== LOCAL_HEADER) throw new ImportError(DAMAGED_ZIP);
    const nameLength = header.getUint16(26, true);
    const extraLength = header.getUint16(28, true);
    const localName = this.source.read(at + 30, nameLength);
    if (
      localName.length !== entry.rawName.length ||
      !localName.every((b, i) => b === entry.rawName[i])
    ) {
      throw new ImportError(`${DAMAGED_ZIP} (the entry names disagree)`);
    }
    return at + 30 + nameLength + extraLength;
  }
}

/** Opens a ZIP archive (in memory or a ZipSource); throws ImportError for anything unsafe or damaged. */
export function openZip(input: ZipInput, limits: ZipLimits = DEFAULT_ZIP_LIMITS): ZipArchive {
  return new ZipArchive(input, limits);
}

/** True when the bytes start like a ZIP archive (local header or an empty archive's end record). */
export function looksLikeZip(input: ZipInput): boolean {
  const bytes = input instanceof Uint8Array ? input : input.read(0, 4);
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06))
  );
}
