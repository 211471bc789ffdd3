/**
 * Screenshots of the editor for docs/screenshots/: a three-generation legacy (a founder with a
 * spouse and an ex, a long name, an adoption) seeded through the API of a running server, opened
 * at 1440x900 and 390x844. `npx tsx bench/editor/screenshots.ts BASE_URL SUFFIX`, e.g.
 * `npx tsx bench/editor/screenshots.ts http://127.0.0.1:3470 before`.
 */
import path from "node:path";
import type { Person } from "@/lib/schemas/person";
import { launchChromium } from "../support/chromium";
import type { TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";

const [baseURL = "http://127.0.0.1:3470", suffix = "after"] = process.argv.slice(2);
const root = path.resolve(import.meta.dirname, "../..");

async function call<T>(method: string, url: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${url}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${url} → ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const id = Math.random().toString(36).slice(2, 10);
const { token } = await call<{ token: string }>("POST", "/api/account/signup", {
  username: `shots_${id}`,
  email: `shots_${id}@example.test`,
  password: `pw-${id}-Plumbob!`,
});
const tree = await call<{ _id: string }>("POST", "/api/trees", { title: "The Goth Legacy" }, token);
const names = {
  cassandra: ["Cassandra", "Goth"],
  mortimer: ["Mortimer", "Goth"],
  don: ["Don", "Lothario"],
  alexander: ["Alexander", "Goth"],
  bartholomew: ["Bartholomew Maximilian", "Fitzgerald-Montgomery"],
  lilith: ["Lilith", "Goth"],
  nina: ["Nina", "Caliente"],
  dina: ["Dina", "Caliente"],
  kip: ["Kip", "Goth"],
  lia: ["Lia", "Goth"],
  gus: ["Gus", "Goth"],
} as const;
const p: Record<string, { _id: string }> = {};
for (const [key, [firstName, lastName]] of Object.entries(names)) {
  const person = await call<Person>(
    "POST",
    "/api/people",
    { tree: tree._id, firstName, lastName },
    token,
  );
  p[key] = { _id: person._id };
}
const node = (over: Partial<TreeNode>): TreeNode => ({ ...emptyNode(), ...over });
const data = node({
  person: p.cassandra!,
  partners: [
    { type: "MARRIED", people: [p.mortimer!] },
    { type: "EX_PARTNER", people: [p.don!] },
  ],
  children: [
    node({
      person: p.alexander!,
      parents: [p.cassandra!, p.mortimer!],
      partners: [{ type: "MARRIED", people: [p.nina!] }],
      children: [
        node({ person: p.kip!, parents: [p.alexander!, p.nina!] }),
        node({ person: p.lia!, adoptiveParents: [p.alexander!, p.nina!] }),
      ],
    }),
    node({
      person: p.bartholomew!,
      parents: [p.cassandra!, p.don!],
      partners: [{ type: "PARTNER", people: [p.dina!] }],
      children: [node({ person: p.gus!, parents: [p.bartholomew!, p.dina!] })],
    }),
    node({ person: p.lilith!, parents: [p.cassandra!, p.mortimer!] }),
  ],
});
await call("PATCH", `/api/trees/${tree._id}`, { data }, token);

const browser = await launchChromium();
for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript((value) => window.localStorage.setItem("token", value), token);
  const page = await context.newPage();
  await page.goto(`${baseURL}/trees/${tree._id}`);
  await page.getByRole("application").waitFor();
  await page.waitForTimeout(1500);
  const file = path.join(root, `docs/screenshots/editor-${viewport.width}-${suffix}.png`);
  await page.screenshot({ path: file });
  console.log(file);
  await context.close();
}
await browser.close();
