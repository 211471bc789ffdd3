import vm from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { EARLY_LOAD_MAX_AGE, EARLY_LOAD_SCRIPT } from "./early-load";
import { canvasTreeUrl } from "./canvas-tree";

type Fetch = (input: unknown, init?: Record<string, unknown>) => Promise<unknown>;

/** A response as fetch gives it: its body can be read once, as a blob. */
function fakeResponse(n: number, status = 200) {
  return {
    n,
    ok: status >= 200 && status < 300,
    status,
    statusText: status === 200 ? "OK" : "Not Found",
    headers: new Headers({ "content-type": "application/json", etag: `"${n}"` }),
    blob: vi.fn(() => Promise.resolve(new Blob([`{"n":${n}}`]))),
  };
}

/** Runs the inline script against a stand-in window, as the browser would. */
function run(pathname: string, token: string | null = "t0k3n", status = 200) {
  const timers: { fn: () => void; ms: number }[] = [];
  const responses: ReturnType<typeof fakeResponse>[] = [];
  const answers: Promise<unknown>[] = [];
  const realFetch = vi.fn<Fetch>(() => {
    const response = fakeResponse(responses.length, status);
    responses.push(response);
    const answer = Promise.resolve(response);
    answers.push(answer);
    return answer;
  });
  const win = {
    localStorage: { getItem: (key: string) => (key === "token" ? token : null) },
    location: { pathname },
    fetch: realFetch as Fetch,
    setTimeout: (fn: () => void, ms: number) => timers.push({ fn, ms }),
    Response,
  };
  vm.runInNewContext(EARLY_LOAD_SCRIPT, { window: win });
  return { win, realFetch, responses, answers, timers };
}

/** What the editor reads from a response the early load handed it. */
async function readAnswer(answer: unknown) {
  const response = (await answer) as Response;
  expect(response).toBeInstanceOf(Response);
  return {
    status: response.status,
    etag: response.headers.get("etag"),
    body: (await response.json()) as unknown,
  };
}

/** The editor's call, as lib/client/api.ts makes it. */
const apiInit = (token = "t0k3n") => ({
  method: "GET",
  headers: { authorization: `Bearer ${token}` },
  body: undefined,
  signal: undefined,
});

describe("the editor's early load", () => {
  it("requests the tree with its people, with the bearer token, as soon as it runs", () => {
    const { realFetch } = run("/trees/abc");
    expect(realFetch.mock.calls).toEqual([
      [canvasTreeUrl("abc"), { headers: { authorization: "Bearer t0k3n" } }],
    ]);
  });

  it("hands the response once to the editor's identical request, then restores fetch", async () => {
    const { win, realFetch } = run("/trees/abc/");
    expect(win.fetch).not.toBe(realFetch);
    const tree = win.fetch(canvasTreeUrl("abc"), apiInit());
    expect(realFetch).toHaveBeenCalledTimes(1);
    expect(win.fetch).toBe(realFetch);
    await expect(readAnswer(tree)).resolves.toEqual({ status: 200, etag: '"0"', body: { n: 0 } });
    // a second identical request is the real fetch's
    void win.fetch(canvasTreeUrl("abc"), apiInit());
    expect(realFetch).toHaveBeenCalledTimes(2);
  });

  it("reads a 2xx body as soon as it arrives, before the editor asks", async () => {
    const { responses } = run("/trees/abc");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(responses.map((response) => response.blob.mock.calls.length)).toEqual([1]);
  });

  it("hands an error on as it came, body unread", async () => {
    const { win, responses } = run("/trees/abc", "t0k3n", 404);
    const answer = await win.fetch(canvasTreeUrl("abc"), apiInit());
    expect(answer).toBe(responses[0]);
    expect(responses[0]!.blob).not.toHaveBeenCalled();
  });

  it("sends every other request to the real fetch", async () => {
    const { win, realFetch, answers } = run("/trees/abc");
    const url = canvasTreeUrl("abc");
    const others: [unknown, Record<string, unknown>?][] = [
      [url, { ...apiInit(), method: "PATCH", body: "{}" }],
      [url, apiInit("someone-else")],
      [url, { ...apiInit(), signal: {} }],
      [url, { headers: { authorization: "Bearer t0k3n", "if-match": '"1"' } }],
      [url, undefined],
      // the original client's read of the tree, and its people's
      ["/api/trees/abc", apiInit()],
      ["/api/people?tree=abc&fields=canvas", apiInit()],
      ["/api/trees", apiInit()],
      [new URL(`http://localhost${url}`), apiInit()],
    ];
    for (const [input, init] of others) {
      const answer = win.fetch(input, init);
      expect(answer).toBe(answers.at(-1));
      expect(realFetch).toHaveBeenLastCalledWith(input, init);
    }
    expect(realFetch).toHaveBeenCalledTimes(1 + others.length);
    // The early response is still there for the editor.
    await expect(readAnswer(win.fetch(url, apiInit()))).resolves.toMatchObject({
      body: { n: 0 },
    });
  });

  it("gives up after EARLY_LOAD_MAX_AGE, so a late request is a fresh one", () => {
    const { win, realFetch, timers } = run("/trees/abc");
    expect(timers.map((timer) => timer.ms)).toEqual([EARLY_LOAD_MAX_AGE]);
    timers[0]!.fn();
    expect(win.fetch).toBe(realFetch);
  });

  it("encodes the id the way the editor does", () => {
    const { realFetch } = run("/trees/a%20b%2Fc");
    expect(realFetch.mock.calls.map(([url]) => url)).toEqual([canvasTreeUrl("a%20b%2Fc")]);
    // the editor's own URL, which the early load must match to the letter (ADR 038)
    expect(canvasTreeUrl("a%20b%2Fc")).toBe("/api/trees/a%20b%2Fc?fields=canvas");
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
