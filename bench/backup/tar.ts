/**
 * The backup tar before and after node-tar (issue 35, ADR 047): the time to write and to read back
 * an archive of many small files and a few large ones (the shape of a backup: table files and
 * images), uncompressed, in this process, median of BENCH_TAR_RUNS (5). The hand-written tar is
 * read from git (the commit before node-tar, BENCH_TAR_BEFORE) into a temporary file. The machine
 * is shared: read the medians, and the ratio more than the milliseconds.
 *
 *   npx tsx bench/backup/tar.ts
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as after from "../../lib/server/backup/tar";

type Tar = Pick<typeof after, "readTar" | "writeTar">;
const RUNS = Number(process.env.BENCH_TAR_RUNS ?? 5);
const BEFORE = process.env.BENCH_TAR_BEFORE ?? "5ed999d";
const ROOT = path.resolve(import.meta.dirname, "../..");

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-bench-tar-"));
const beforeFile = path.join(dir, "tar-before.ts");
fs.writeFileSync(
  beforeFile,
  execFileSync("git", ["show", `${BEFORE}:lib/server/backup/tar.ts`], { cwd: ROOT }),
);
const before = (await import(pathToFileURL(beforeFile).href)) as Tar;

// 2,000 images of 20-60 KB and 20 table files of 1-8 MB: about 110 MB.
const files: [string, Buffer][] = [];
for (let t = 0; t < 20; t++) {
  files.push([`database/Table${t}.jsonl`, randomBytes((1 + (t % 8)) << 20)]);
}
for (let i = 0; i < 2_000; i++) {
  files.push([
    `uploads/avatar/${i.toString(16).padStart(24, "0")}.png.webp`,
    randomBytes(20_000 + (i % 5) * 10_000),
  ]);
}
const total = files.reduce((sum, [, bytes]) => sum + bytes.length, 0);

async function once(tar: Tar) {
  const started = performance.now();
  const chunks: Buffer[] = [];
  for await (const chunk of tar.writeTar(
    files.map(([name, bytes]) => ({ name, size: bytes.length, bytes: () => [bytes] })),
  )) {
    chunks.push(Buffer.from(chunk));
  }
  const written = performance.now() - started;
  const archive = Buffer.concat(chunks);
  async function* pieces() {
    for (let at = 0; at < archive.length; at += 64 * 1024)
      yield archive.subarray(at, at + 64 * 1024);
  }
  const readStarted = performance.now();
  let bytes = 0;
  let count = 0;
  for await (const entry of tar.readTar(pieces())) {
    count += 1;
    for await (const chunk of entry.bytes()) bytes += chunk.length;
  }
  const read = performance.now() - readStarted;
  if (count !== files.length || bytes !== total) throw new Error("not read back whole");
  return { written, read, archiveBytes: archive.length };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results: Record<string, { writeMs: number; readMs: number; archiveBytes: number }> = {};
const runs: Record<string, { written: number[]; read: number[]; archiveBytes: number }> = {
  before: { written: [], read: [], archiveBytes: 0 },
  after: { written: [], read: [], archiveBytes: 0 },
};
for (let run = 0; run < RUNS; run++) {
  // Alternated, so that the machine's moods fall on both.
  for (const [name, tar] of run % 2
    ? ([
        ["after", after],
        ["before", before],
      ] as const)
    : ([
        ["before", before],
        ["after", after],
      ] as const)) {
    const r = await once(tar);
    runs[name]!.written.push(r.written);
    runs[name]!.read.push(r.read);
    runs[name]!.archiveBytes = r.archiveBytes;
  }
}
for (const [name, r] of Object.entries(runs)) {
  results[name] = {
    writeMs: Math.round(median(r.written)),
    readMs: Math.round(median(r.read)),
    archiveBytes: r.archiveBytes,
  };
}
fs.rmSync(dir, { recursive: true, force: true });
console.log(
  JSON.stringify(
    { files: files.length, bytes: total, runs: RUNS, before: BEFORE, results },
    null,
    2,
  ),
);
