// The event-loop watch logs a warning when the request thread was held past the threshold. (That
// it stays quiet while the thread is free is not asserted: on the shared machine the process can
// wait for a core that long.)
import type { Logger } from "pino";
import { afterEach, expect, it, vi } from "vitest";
import { watchEventLoop } from "./event-loop";

let stop: (() => void) | undefined;
afterEach(() => stop?.());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("logs a delayed event loop once a delay passes the threshold", async () => {
  const warn = vi.fn();
  stop = watchEventLoop({ warn } as unknown as Logger, 100);
  await sleep(300);
  const until = performance.now() + 400;
  while (performance.now() < until) {
    // the request thread held, as a parse on it would
  }
  await sleep(1_200);
  const calls = warn.mock.calls as [{ eventLoopDelayMs: { max: number } }, string][];
  const held = calls.filter(([fields]) => fields.eventLoopDelayMs.max >= 300);
  expect(held.map(([, message]) => message)).toEqual([
    "event loop delayed: the request thread was busy",
  ]);
});

it("starts once per process: a second call answers the running watch", () => {
  stop = watchEventLoop({ warn: vi.fn() } as unknown as Logger);
  expect(watchEventLoop({ warn: vi.fn() } as unknown as Logger)).toBe(stop);
});
