import { afterEach, vi } from "vitest";

// A test that makes anything call console.error fails: errors must not pass unnoticed.
const spy = vi.spyOn(console, "error");
afterEach(() => {
  const calls = spy.mock.calls;
  spy.mockClear();
  if (calls.length > 0)
    throw new Error(
      `console.error was called: ${calls.map((c) => c.map(String).join(" ")).join("\n")}`,
    );
});
