// npx tsx bench/save/bytes.ts - bytes one autosave sends at 10,000 Sims, whole {data} against the
// JSON Patch the editor now sends, and the client's time to work the patch out (median of runs).
// Results: bench/results/save.json (its serverSave, the time of a save at the server, is time.ts's
// and kept).
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import jsonPatch from "fast-json-patch";
import { storedForm, structurePatch } from "@/components/tree-editor/tree-saver";
import type { TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { addChild, mergeNode } from "@/lib/tree/reducers";
import { generateLegacy } from "../editor/generate";

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const RUNS = 7;

const legacy = generateLegacy({ sims: 10_000, personId: () => randomUUID() });
// GET's form since issue 13: every reference carries its person's names
const names = new Map(legacy.people.map((p) => [p._id, p]));
const named = JSON.parse(
  JSON.stringify(legacy.data).replace(/\{"_id":"([^"]+)"\}/g, (_, id: string) => {
    const p = names.get(id)!;
    return JSON.stringify({ _id: id, firstName: p.firstName, lastName: p.lastName });
  }),
) as TreeNode;

const edits: [string, (root: TreeNode) => TreeNode][] = [
  ["add a child to the root", (root) => addChild(root, [])],
  ["add a child five generations down", (root) => addChild(root, [0, 0, 0, 0, 0])],
  [
    "set a node's person",
    (root) => mergeNode(root, [0, 0], { person: { _id: legacy.people[5]!._id } }),
  ],
  ["hide a node", (root) => mergeNode(root, [0], { hidden: true })],
];

const results = edits.map(([name, edit]) => {
  const next = edit(named);
  const wholeNamed = Buffer.byteLength(JSON.stringify({ data: next }));
  const wholeStored = Buffer.byteLength(JSON.stringify({ data: storedForm(next) }));
  const times: number[] = [];
  const timesBefore: number[] = [];
  let patchBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    // Before: both trees copied to stored form, then compared whole (fast-json-patch compare).
    let started = performance.now();
    jsonPatch.compare({ data: storedForm(named) }, { data: storedForm(next) });
    timesBefore.push(performance.now() - started);
    // Now: the walk down the edit's path of the trees the editor holds (tree-saver.ts).
    started = performance.now();
    const operations = structurePatch(named, next);
    times.push(performance.now() - started);
    patchBytes = Buffer.byteLength(JSON.stringify(operations ?? { data: next }));
  }
  return {
    edit: name,
    bytesBefore: wholeNamed,
    bytesWholeStoredForm: wholeStored,
    bytesAfter: patchBytes,
    clientPatchMsBeforeMedian: Math.round(median(timesBefore) * 10) / 10,
    clientPatchMsMedian: Math.round(median(times) * 100) / 100,
  };
});

const output = {
  date: new Date().toISOString(),
  sims: legacy.people.length,
  loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
  runs: RUNS,
  note: "bytesBefore: the whole {data} as the editor sent it (GET's form, names in references); bytesAfter: the JSON Patch it sends now. clientPatchMsBeforeMedian: working the patch out as the editor did before (storedForm of both trees, then fast-json-patch compare()); clientPatchMsMedian: as it does now (structurePatch's walk down the edit's path of the shared trees); both in Node, median of runs.",
  results,
  emptyPatchCheck: structurePatch(emptyNode(), emptyNode())?.length,
};
const RESULTS = "bench/results/save.json";
const kept = fs.existsSync(RESULTS)
  ? (JSON.parse(fs.readFileSync(RESULTS, "utf8")) as { serverSave?: unknown }).serverSave
  : undefined;
fs.mkdirSync("bench/results", { recursive: true });
fs.writeFileSync(RESULTS, `${JSON.stringify({ ...output, serverSave: kept }, null, 2)}\n`);
console.log(JSON.stringify(output, null, 2));
