// Builds the production app unless the existing build matches the sources.
import { spawnSync } from "node:child_process";
import { buildIsCurrent, recordBuild, sourceHash } from "./lib/build-state";

export function ensureBuild(): void {
  if (buildIsCurrent()) return;
  const hash = sourceHash();
  console.log("Building Heirloom (the sources changed since the last build)…");
  const result = spawnSync(process.execPath, ["node_modules/next/dist/bin/next", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  recordBuild(process.cwd(), hash);
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuild();
