// Issue 32: saves that fail for a network reason are kept on the device and retried (TreeSaver,
// HeirsSaver, KeptTreeWriter), with If-Match as ever.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryStore, KeptTreeWriter, type KeptTree } from "@/lib/client/kept-edits";
import type { TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { addChild } from "@/lib/tree/reducers";
import { HeirsSaver } from "./heirs-saver";
import { retryDelay, TreeSaver, type SaveStatus, type TreeSaverOptions } from "./tree-saver";

class Offline extends Error {}
class Conflict extends Error {}

interface Call {
  data: TreeNode;
  version: number;
  resolve: (version: number) => void;
  reject: (error: unknown) => void;
}

function setup(options: Partial<TreeSaverOptions> = {}) {
  const calls: Call[] = [];
  const statuses: SaveStatus[] = [];
  const kept: { data: TreeNode; version: number }[] = [];
  const events: string[] = [];
  const initial = options.data ?? emptyNode();
  const saver = new TreeSaver({
    data: initial,
    version: 3,
    delay: 1000,
    send: (data, version) =>
      new Promise((resolve, reject) => {
        calls.push({ data, version, resolve: (v) => resolve({ version: v }), reject });
      }),
    isConflict: (error) => error instanceof Conflict,
    isNetworkFailure: (error) => error instanceof Offline,
    onStatus: (status) => statuses.push(status),
    keep: (data, version) => kept.push({ data, version }),
    release: () => events.push("release"),
    onConflict: () => events.push("conflict"),
    onError: () => events.push("error"),
    onKept: () => events.push("kept"),
    ...options,
  });
  return { saver, calls, statuses, kept, events, initial };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("TreeSaver offline", () => {
  it("keeps a save that failed on the network, without an error, and retries it with backoff", async () => {
    const { saver, calls, kept, events, initial } = setup();
    const one = addChild(initial, []);
    saver.update(one);
    await vi.advanceTimersByTimeAsync(1000);
    calls[0]!.reject(new Offline());
    await settle();
    expect(saver.status).toBe("kept");
    expect(events).toEqual([]);
    expect(kept).toEqual([{ data: one, version: 3 }]);

    // retries at 2 s, then 4 s after that, each with the same If-Match
    await vi.advanceTimersByTimeAsync(retryDelay(0) - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(calls[1]!).toMatchObject({ data: one, version: 3 });
    calls[1]!.reject(new Offline());
    await settle();
    await vi.advanceTimersByTimeAsync(retryDelay(1) - 1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    expect(saver.status).toBe("kept");
    // the same tree is written to the device once
    expect(kept).toHaveLength(1);

    calls[2]!.resolve(4);
    await settle();
    expect(saver.status).toBe("saved");
    expect(events).toEqual(["release"]);
  });

  it("backs off up to a minute between retries", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(retryDelay)).toEqual([
      2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000,
    ]);
  });

  it("sends at once when the browser is back online, and keeps each change made offline", async () => {
    const { saver, calls, kept, initial } = setup();
    const one = addChild(initial, []);
    saver.update(one);
    await vi.advanceTimersByTimeAsync(1000);
    calls[0]!.reject(new Offline());
    await settle();

    // an edit while offline: kept before its attempt is sent
    const two = addChild(one, []);
    saver.update(two);
    expect(saver.status).toBe("kept");
    await vi.advanceTimersByTimeAsync(1000);
    expect(kept.at(-1)).toEqual({ data: two, version: 3 });
    expect(calls).toHaveLength(2);
    calls[1]!.reject(new Offline());
    await settle();

    saver.online();
    expect(calls).toHaveLength(3);
    expect(calls[2]!).toMatchObject({ data: two, version: 3 });
    calls[2]!.resolve(4);
    await settle();
    expect(saver.status).toBe("saved");
    expect(saver.currentVersion).toBe(4);
  });

  it("keeps an edit made while changes are kept at once, before its save is sent", async () => {
    const { saver, calls, kept, initial } = setup();
    const one = addChild(initial, []);
    saver.update(one);
    await vi.advanceTimersByTimeAsync(1000);
    calls[0]!.reject(new Offline());
    await settle();

    // a reload within the autosave delay finds the edit on the device
    const two = addChild(one, []);
    saver.update(two);
    expect(kept.at(-1)).toEqual({ data: two, version: 3 });
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls[1]!).toMatchObject({ data: two, version: 3 });
  });

  it("keeps newer changes made while a kept save was on its way, with the new version", async () => {
    const { saver, calls, kept, events, initial } = setup();
    const one = addChild(initial, []);
    saver.update(one);
    await vi.advanceTimersByTimeAsync(1000);
    calls[0]!.reject(new Offline());
    await settle();
    saver.online();
    const two = addChild(one, []);
    saver.update(two);
    calls[1]!.resolve(4);
    await settle();
    // the device holds the newer tree against the version the server now has
    expect(kept.at(-1)).toEqual({ data: two, version: 4 });
    expect(events).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls[2]!).toMatchObject({ data: two, version: 4 });
    calls[2]!.resolve(5);
    await settle();
    expect(saver.status).toBe("saved");
    expect(events).toEqual(["release"]);
  });

  it("still stops on a 409 when the kept save comes back: nothing is overwritten", async () => {
    const { saver, calls, events, initial } = setup();
    saver.update(addChild(initial, []));
    await vi.advanceTimersByTimeAsync(1000);
    calls[0]!.reject(new Offline());
    await settle();
    saver.online();
    calls[1]!.reject(new Conflict());
    await settle();
    expect(saver.status).toBe("conflict");
    expect(events).toEqual(["conflict"]);
    saver.online();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(2);
    // what the device kept stays until the player reloads
    expect(events).not.toContain("release");
  });

  it("takes a 409 for its own save when the server holds exactly what an unanswered save sent", async () => {
    const initial = emptyNode();
    const one = addChild(initial, []);
    const readServer = vi.fn(() => Promise.resolve({ data: structuredClone(one), version: 4 }));
    const { saver, calls, events } = setup({ data: initial, readServer });
    saver.update(one);
    await vi.advanceTimersByTimeAsync(1000);
    // the server saved it as version 4, but the answer was lost
    calls[0]!.reject(new Offline());
    await settle();
    saver.online();
    calls[1]!.reject(new Conflict());
    await settle();
    expect(readServer).toHaveBeenCalledTimes(1);
    expect(saver.status).toBe("saved");
    expect(saver.currentVersion).toBe(4);
    expect(events).toEqual(["release"]);
  });

  it("does not take someone else's save for its own", async () => {
    const initial = emptyNode();
    const one = addChild(initial, []);
    const theirs = addChild(addChild(initial, []), []);
    for (const server of [
      { data: theirs, version: 4 },
      // the same tree, but two saves on: someone saved after it
      { data: structuredClone(one), version: 5 },
    ]) {
      const { saver, calls, events } = setup({
        data: initial,
        readServer: () => Promise.resolve(server),
      });
      saver.update(one);
      await vi.advanceTimersByTimeAsync(1000);
      calls[0]!.reject(new Offline());
      await settle();
      saver.online();
      calls[1]!.reject(new Conflict());
      await settle();
      expect(saver.status).toBe("conflict");
      expect(events).toEqual(["conflict"]);
    }
  });

  it("sends a tree kept by an earlier page at once, with the version it was edited from", async () => {
    const initial = emptyNode();
    const keptTree = addChild(initial, []);
    const { saver, calls, statuses, events } = setup({ data: initial, kept: keptTree, version: 7 });
    expect(saver.status).toBe("kept");
    expect(saver.dirty).toBe(true);
    await settle();
    expect(calls).toHaveLength(1);
    expect(calls[0]!).toMatchObject({ data: keptTree, version: 7 });
    calls[0]!.resolve(8);
    await settle();
    expect(statuses.at(-1)).toBe("saved");
    expect(events).toEqual(["release"]);
  });

  it("reports a manual save that could only be kept", async () => {
    const { saver, calls, events, initial } = setup();
    saver.update(addChild(initial, []));
    const done = saver.save(true);
    calls[0]!.reject(new Offline());
    await done;
    expect(events).toEqual(["kept"]);
    expect(saver.status).toBe("kept");
  });

  it("schedules no retries once suspended (the editor was left), and again when resumed", async () => {
    const { saver, calls, initial } = setup();
    saver.update(addChild(initial, []));
    await vi.advanceTimersByTimeAsync(1000);
    calls[0]!.reject(new Offline());
    await settle();
    saver.flush();
    saver.suspend();
    calls[1]!.reject(new Offline());
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(2);
    saver.resume();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.length).toBeGreaterThan(2);
  });

  it("forgets what it kept when an undo goes back to what the server has", async () => {
    const { saver, calls, events, initial } = setup();
    saver.update(addChild(initial, []));
    await vi.advanceTimersByTimeAsync(1000);
    calls[0]!.reject(new Offline());
    await settle();
    saver.update(initial);
    expect(saver.status).toBe("saved");
    expect(events).toEqual(["release"]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(1);
  });
});

describe("HeirsSaver", () => {
  function heirsSetup(kept?: string[]) {
    const sent: {
      heirs: readonly string[];
      resolve: (h: string[]) => void;
      reject: (e: unknown) => void;
    }[] = [];
    const events: string[] = [];
    const saver = new HeirsSaver({
      heirs: [],
      kept,
      send: (heirs) =>
        new Promise((resolve, reject) => {
          sent.push({ heirs, resolve, reject });
        }),
      isNetworkFailure: (error) => error instanceof Offline,
      keep: (heirs) => events.push(`keep ${heirs.join(",")}`),
      release: () => events.push("release"),
      onSaved: (heirs) => events.push(`saved ${heirs.join(",")}`),
      onRefused: (heirs) => events.push(`refused ${heirs.join(",")}`),
    });
    return { saver, sent, events };
  }

  it("keeps heirs marked offline, does not call them saved, and sends them when back online", async () => {
    const { saver, sent, events } = heirsSetup();
    saver.set(["a"]);
    expect(saver.status).toBe("saving");
    sent[0]!.reject(new Offline());
    await settle();
    expect(saver.status).toBe("kept");
    expect(events).toEqual(["keep a"]);
    saver.set(["b"]);
    expect(events).toEqual(["keep a", "keep b"]);
    sent[1]!.reject(new Offline());
    await settle();
    saver.online();
    expect(sent[2]!.heirs).toEqual(["b"]);
    sent[2]!.resolve(["b"]);
    await settle();
    expect(saver.status).toBe("saved");
    expect(events.slice(-2)).toEqual(["release", "saved b"]);
  });

  it("retries kept heirs with backoff", async () => {
    const { saver, sent } = heirsSetup();
    saver.set(["a"]);
    sent[0]!.reject(new Offline());
    await settle();
    await vi.advanceTimersByTimeAsync(retryDelay(0));
    expect(sent).toHaveLength(2);
  });

  it("goes back to the server's heirs when they are refused", async () => {
    const { saver, sent, events } = heirsSetup();
    saver.set(["a"]);
    sent[0]!.reject(new Error("400"));
    await settle();
    expect(saver.status).toBe("saved");
    expect(events).toEqual(["refused "]);
  });

  it("sends heirs kept by an earlier page at once", async () => {
    const { saver, sent } = heirsSetup(["k"]);
    expect(saver.status).toBe("kept");
    await settle();
    expect(sent[0]!.heirs).toEqual(["k"]);
  });
});

describe("KeptTreeWriter", () => {
  it("keeps the structure and heirs in one record per tree, and forgets it when both are released", async () => {
    const store = memoryStore();
    const writer = new KeptTreeWriter(store, "t1", "ada");
    const one = addChild(emptyNode(), []);
    await writer.keepStructure(one, 3);
    await writer.keepHeirs(["p1"]);
    const record = (await store.read("t1")) as KeptTree;
    expect(record).toMatchObject({ treeId: "t1", owner: "ada", heirs: { list: ["p1"] } });
    expect(record.structure).toMatchObject({ data: one, version: 3 });
    await writer.release("structure");
    expect((await store.read("t1"))?.structure).toBeUndefined();
    await writer.release("heirs");
    expect(await store.read("t1")).toBeUndefined();
  });

  it("releases a record an editor opened with, once its server has it", async () => {
    const store = memoryStore();
    await new KeptTreeWriter(store, "t1", "ada").keepStructure(emptyNode(), 3);
    const reopened = new KeptTreeWriter(store, "t1", "ada");
    reopened.adopt(await store.read("t1"));
    await reopened.release("structure");
    expect(await store.read("t1")).toBeUndefined();
  });

  it("never releases what another editor kept since", async () => {
    const store = memoryStore();
    const older = new KeptTreeWriter(store, "t1", "ada");
    const newer = new KeptTreeWriter(store, "t1", "ada");
    await older.keepStructure(emptyNode(), 3);
    const newest = addChild(emptyNode(), []);
    await newer.keepStructure(newest, 3);
    await older.release("structure");
    expect((await store.read("t1"))?.structure?.data).toBe(newest);
  });

  it("does not touch another account's record on release, and replaces it on keep", async () => {
    const store = memoryStore();
    const bob = new KeptTreeWriter(store, "t1", "bob");
    await bob.keepHeirs(["b"]);
    const ada = new KeptTreeWriter(store, "t1", "ada");
    await ada.discard("heirs");
    expect((await store.read("t1"))?.owner).toBe("bob");
    await ada.keepHeirs(["a"]);
    expect(await store.read("t1")).toMatchObject({ owner: "ada", heirs: { list: ["a"] } });
  });
});
