import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import zlib from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { gzipStartOfParts, gzipWithTail, writePlainInParts } from "./published-json-parts";

/** A publication's text in `count` parts of about `size` characters, the last ending in "}". */
function someParts(count: number, size: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const part = `"part ${i}": "${"\u00e9\u{1F333}x".repeat(size / 4)}", `;
    return i === count - 1 ? `${part}"end": true}` : part;
  });
}

/** A response that takes `capacity` writes, then reports backpressure until drain() is called. */
class SlowReader extends EventEmitter {
  readonly chunks: Buffer[] = [];
  destroyed = false;
  ended = false;
  waiting = 0;
  constructor(private capacity: number) {
    super();
  }
  write(chunk: Buffer): boolean {
    this.chunks.push(chunk);
    this.capacity -= 1;
    return this.capacity > 0;
  }
  end(tail: string): void {
    this.chunks.push(Buffer.from(tail));
    this.ended = true;
  }
  destroy(): void {
    this.destroyed = true;
  }
  drain(more: number): void {
    this.capacity = more;
    this.emit("drain");
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("a publication's gzip made from its parts", () => {
  const parts = someParts(5, 40_000);
  const text = parts.join("");

  it("is one gzip member of the text (without its brace) ended by any tail", async () => {
    const start = await gzipStartOfParts([...parts]);
    expect(start.bytes).toBe(Buffer.byteLength(text) - 1);
    const body = Buffer.concat(gzipWithTail(start, ', "viewCount" : 3}'));
    expect(zlib.gunzipSync(body).toString()).toBe(`${text.slice(0, -1)}, "viewCount" : 3}`);
    // One member: the deflate stream alone is the whole text.
    expect(zlib.inflateRawSync(body.subarray(10, -8)).toString()).toBe(
      `${text.slice(0, -1)}, "viewCount" : 3}`,
    );
  });

  it("lets every part inflate on its own, from its restart to the next", async () => {
    const start = await gzipStartOfParts([...parts]);
    expect(start.restarts).toHaveLength(parts.length + 1);
    expect(start.restarts.at(-1)).toBe(start.gzipped.length);
    const alone = start.restarts.slice(0, -1).map((from, i) =>
      zlib
        .inflateRawSync(start.gzipped.subarray(from, start.restarts[i + 1]), {
          finishFlush: zlib.constants.Z_SYNC_FLUSH,
        })
        .toString(),
    );
    expect(alone).toEqual([...parts.slice(0, -1), parts.at(-1)!.slice(0, -1)]);
  });

  it("lets the event loop run between two parts", async () => {
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    await gzipStartOfParts(someParts(20, 4_000));
    counting = false;
    expect(turns).toBeGreaterThanOrEqual(20);
  });
});

describe("writePlainInParts", () => {
  it("writes the next part only once the reader took the last, then the tail", async () => {
    const parts = someParts(6, 20_000);
    const start = await gzipStartOfParts([...parts]);
    const reader = new SlowReader(2);
    const done = writePlainInParts(reader as unknown as ServerResponse, start, "}");
    await settle();
    expect(reader.chunks).toHaveLength(2);
    await settle();
    expect(reader.chunks).toHaveLength(2);
    reader.drain(1);
    await settle();
    expect(reader.chunks).toHaveLength(3);
    reader.drain(100);
    await done;
    expect(reader.ended).toBe(true);
    expect(Buffer.concat(reader.chunks).toString()).toBe(parts.join(""));
  });

  it("stops when the reader is gone, and inflates one part at a time for all readers", async () => {
    const start = await gzipStartOfParts(someParts(8, 20_000));
    const inflating = { now: 0, most: 0 };
    const inflateRaw = zlib.inflateRaw;
    const spy = vi
      .spyOn(zlib, "inflateRaw")
      .mockImplementation(
        (buffer: zlib.InputType, options: zlib.ZlibOptions, callback: zlib.CompressCallback) => {
          inflating.now += 1;
          inflating.most = Math.max(inflating.most, inflating.now);
          inflateRaw(buffer, options, (error, result) => {
            inflating.now -= 1;
            callback(error, result);
          });
        },
      );
    try {
      const readers = Array.from({ length: 4 }, () => new SlowReader(1_000));
      const gone = new SlowReader(1);
      const all = [...readers, gone].map((reader) =>
        writePlainInParts(reader as unknown as ServerResponse, start, "}"),
      );
      await settle();
      gone.destroyed = true;
      gone.drain(1_000);
      await Promise.all(all);
      expect(readers.every((reader) => reader.ended)).toBe(true);
      expect(gone.ended).toBe(false);
      expect(gone.chunks).toHaveLength(1);
      expect(inflating.most).toBe(1);
    } finally {
      spy.mockRestore();
    }
  });
});
