// Shared by tests/reliability/stall.test.ts and bench/stall (issue 32, findings 2 and 4): writes to
// a large tree imported from a Sims 4 save (a whole-tree save, a sync with a newer save, heirs
// checks), and a hostile save whose one mother has 99,990 children.
import { randomUUID } from "node:crypto";
import * as sims4Testing from "../../../lib/sims4/testing";
import { writeSave, type FixtureSave, type FixtureSim } from "../../../lib/sims4/testing";
import { generatedLegacy } from "../../../bench/sims4/generate";
import { type Answer, signUp } from "./client";
import { heavyRequest } from "./stall";

/** generatedLegacy's founders' household: the first id it gives (2^60 + 1). */
export const LEGACY_HOUSEHOLD = String(2n ** 60n + 1n);

/** A legacy save of `sims` Sims; the same ids for the same count, so a larger one is "newer". */
export const legacySave = (sims: number) => generatedLegacy(sims).bytes;

/** POST a Sims 4 save's bytes to `path` (an import, a sync or the households list). */
export const postSave = (
  base: string,
  token: string,
  path: string,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
) =>
  heavyRequest(base, "POST", path, {
    token,
    body: bytes,
    headers: { "content-type": "application/octet-stream", ...headers },
  });

export interface LargeTree {
  token: string;
  treeId: string;
  etag: string;
  /** `{"data": …}`: the stored structure as GET answers it, for a whole-tree save. */
  wholeBody: string;
  /** The structure's size in bytes. */
  bodyBytes: number;
}

/**
 * A new player's tree imported from a legacy save of `sims` Sims (the founders' family), with the
 * body of a whole-tree save of it, made once here so that the client's own JSON work never runs
 * beside the version client it times.
 */
export async function largeSims4Tree(base: string, sims: number): Promise<LargeTree> {
  const token = await signUp(base, "large");
  const imported = await postSave(
    base,
    token,
    `/api/trees/import?fileName=legacy.save&household=${LEGACY_HOUSEHOLD}`,
    legacySave(sims),
  );
  if (imported.status !== 201) {
    throw new Error(`importing ${sims} Sims: ${imported.status} ${imported.text.slice(0, 300)}`);
  }
  const treeId = (imported.body as { tree: { _id: string } }).tree._id;
  const read = await heavyRequest(base, "GET", `/api/trees/${treeId}`, { token });
  if (read.status !== 200) throw new Error(`reading the tree: ${read.status}`);
  const wholeBody = JSON.stringify({ data: (read.body as { data: unknown }).data });
  return {
    token,
    treeId,
    etag: read.headers?.get("etag") ?? "",
    wholeBody,
    bodyBytes: Buffer.byteLength(wholeBody),
  };
}

/**
 * A whole-tree save (the original client's `PATCH {data}`) sent with the tree's current ETag;
 * `tree.etag` follows each accepted save, so the same function can be sent over and over.
 */
export async function wholeTreeSave(base: string, tree: LargeTree): Promise<Answer> {
  const answer = await heavyRequest(base, "PATCH", `/api/trees/${tree.treeId}`, {
    token: tree.token,
    body: tree.wholeBody,
    headers: { "content-type": "application/json", "if-match": tree.etag },
  });
  const etag = answer.headers?.get("etag");
  if (answer.status === 200 && etag) tree.etag = etag;
  return answer;
}

/** A sync of the tree with `bytes`, a newer save of its household (If-Match as the editor sends). */
export async function syncSave(base: string, tree: LargeTree, bytes: Uint8Array): Promise<Answer> {
  const answer = await postSave(
    base,
    tree.token,
    `/api/trees/${tree.treeId}/import?household=${LEGACY_HOUSEHOLD}`,
    bytes,
    { "if-match": tree.etag },
  );
  const etag = answer.headers?.get("etag");
  if (answer.status === 200 && etag) tree.etag = etag;
  return answer;
}

/** `PUT /heirs` naming a Sim who is not in the tree: refused with 422, after reading the tree. */
export const unknownHeir = (base: string, tree: LargeTree) =>
  heavyRequest(base, "PUT", `/api/trees/${tree.treeId}/heirs`, {
    token: tree.token,
    body: JSON.stringify({ heirs: [randomUUID()] }),
    headers: { "content-type": "application/json" },
  });

/**
 * Finding 2's hostile save: one household in which one mother has `children` children (99,990 in
 * the issue: a save that held an import worker for 30-49 s). The parser's engineer exports the
 * generator from lib/sims4/testing.ts; the same save is built here from its writer otherwise (a
 * checkout from before it, for a "before" run).
 */
export function manyChildrenSave(children = 99_990): Uint8Array {
  const shared = (sims4Testing as { manyChildrenSave?: (children?: number) => Uint8Array })
    .manyChildrenSave;
  if (shared) return shared(children);
  const base = 2n ** 60n;
  const household = base + 1_000_000n;
  const mother = base + 1n;
  const sims: FixtureSim[] = [
    {
      id: mother,
      householdId: household,
      firstName: "Mother",
      lastName: "Many",
      gender: 8192,
      age: 32,
    },
  ];
  for (let i = 0n; i < BigInt(children); i += 1n) {
    sims.push({
      id: base + 10n + i,
      householdId: household,
      firstName: "Child",
      lastName: "Many",
      age: 4,
      relations: [[0, mother]],
    });
  }
  const save: FixtureSave = {
    activeHouseholdId: household,
    households: [{ id: household, name: "Many" }],
    sims,
  };
  return writeSave(save);
}

/** POST /api/trees/import/households with a save: nothing is stored. */
export const postHouseholds = (base: string, token: string, bytes: Uint8Array) =>
  postSave(base, token, "/api/trees/import/households", bytes);
