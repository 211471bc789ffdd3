import vm from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { EARLY_LOAD_MAX_AGE, EARLY_LOAD_SCRIPT } from "./early-load";

type Fetch = (input: unknown, init?: Record<string, unknown>) => Promise<unknown>;

/** Runs the inline script against a stand-in window, as the browser would. */
function run(pathname: string, token: string | null = "t0k3n") {
  const timers: { fn: () => void; ms: number }[] = [];
  const responses: Promise<unknown>[] = [];
  const realFetch = vi.fn<Fetch>(() => {
    const response = Promise.resolve({ n: responses.length });
    responses.push(response);
    return response;
  });
  const win = {
    localStorage: { getItem: (key: string) => (key === "token" ? token : null) },
    location: { pathname },
    fetch: realFetch as Fetch,
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
  };
  vm.runInNewContext(EARLY_LOAD_SCRIPT, { window: win });
  return { win, realFetch, responses, timers };
}

/** The editor's call, as lib/client/api.ts makes it. */
const apiInit = (token = "t0k3n") => ({
  method: "GET",
  headers: { authorization: `Bearer ${token}` },
  body: undefined,
  signal: undefined,
});

describe("the editor's early load", () => {
  it("requests the tree and its people with the bearer token as soon as it runs", () => {
    const { realFetch } = run("/trees/abc");
    expect(realFetch.mock.calls).toEqual([
      ["/api/trees/abc", { headers: { authorization: "Bearer t0k3n" } }],
      ["/api/people?tree=abc", { headers: { authorization: "Bearer t0k3n" } }],
    ]);
  });

  it("hands each response once to the editor's identical request, then restores fetch", async () => {
    const { win, realFetch, responses } = run("/trees/abc/");
    expect(win.fetch).not.toBe(realFetch);
    const people = win.fetch("/api/people?tree=abc", apiInit());
    expect(people).toBe(responses[1]);
    expect(win.fetch("/api/trees/abc", apiInit())).toBe(responses[0]);
    expect(realFetch).toHaveBeenCalledTimes(2);
    expect(win.fetch).toBe(realFetch);
    await expect(people).resolves.toEqual({ n: 1 });
  });

  it("sends every other request to the real fetch", () => {
    const { win, realFetch, responses } = run("/trees/abc");
    const others: [unknown, Record<string, unknown>?][] = [
      ["/api/trees/abc", { ...apiInit(), method: "PATCH", body: "{}" }],
      ["/api/trees/abc", apiInit("someone-else")],
      ["/api/trees/abc", { ...apiInit(), signal: {} }],
      ["/api/trees/abc", { headers: { authorization: "Bearer t0k3n", "if-match": '"1"' } }],
      ["/api/trees/abc", undefined],
      ["/api/trees", apiInit()],
      [new URL("http://localhost/api/trees/abc"), apiInit()],
    ];
    for (const [input, init] of others) {
      const answer = win.fetch(input, init);
      expect(answer).toBe(responses.at(-1));
      expect(realFetch).toHaveBeenLastCalledWith(input, init);
    }
    expect(realFetch).toHaveBeenCalledTimes(2 + others.length);
    // The early responses are still there for the editor.
    expect(win.fetch("/api/trees/abc", apiInit())).toBe(responses[0]);
  });

  it("gives up after EARLY_LOAD_MAX_AGE, so a late request is a fresh one", () => {
    const { win, realFetch, timers } = run("/trees/abc");
    expect(timers.map((timer) => timer.ms)).toEqual([EARLY_LOAD_MAX_AGE]);
    timers[0]!.fn();
    expect(win.fetch).toBe(realFetch);
  });

  it("encodes the id the way the editor does", () => {
    const { realFetch } = run("/trees/a%20b%2Fc");
    expect(realFetch.mock.calls.map(([url]) => url)).toEqual([
      "/api/trees/a%20b%2Fc",
      "/api/people?tree=a%20b%2Fc",
    ]);
  });

  it.each([
    ["without a token", "/trees/abc", null],
    ["on another page of the tree", "/trees/abc/details", "t0k3n"],
    ["on the create page", "/trees/create", "t0k3n"],
    ["on the import page", "/trees/import", "t0k3n"],
    ["with a malformed address", "/trees/%E0%A4%A", "t0k3n"],
  ])("does nothing %s", (_name, pathname, token) => {
    const { win, realFetch } = run(pathname, token);
    expect(realFetch).not.toHaveBeenCalled();
    expect(win.fetch).toBe(realFetch);
  });
});
