// What `npm start` runs, read from package.json's "start" script: tsx, the server's Node flags
// (ADR 039), then scripts/start.ts. The tests and benchmarks that start the production server
// spawn these very arguments, so they measure what a player's `npm start` serves.
import fs from "node:fs";
import path from "node:path";

const START = /^tsx((?: --[a-z][a-z0-9-]*(?:=\S+)?)*) (scripts\/start\.ts)$/;

/** tsx's arguments for the production server in the checkout at `root`: flags, then the script. */
export function startArgs(root: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
    scripts?: { start?: string };
  };
  const start = pkg.scripts?.start ?? "";
  const match = START.exec(start);
  if (!match)
    throw new Error(`package.json's start script is not "tsx [flags] scripts/start.ts": ${start}`);
  return [...match[1]!.trim().split(" ").filter(Boolean), match[2]!];
}
