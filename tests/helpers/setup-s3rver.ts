// Starts a real S3 server (npm s3rver, over HTTP on a free loopback port, in a child process) for
// the api project's S3 tests, and hands its address to them through inject("s3Endpoint"). Its
// objects live in a temporary folder removed afterwards. s3rver does not check SigV4 signatures
// (it does check a presigned URL's expiry), so tests/api/s3-signing.test.ts checks ours itself.
import { fork } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  interface ProvidedContext {
    s3Endpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-s3rver-"));
  const child = fork(path.resolve("tests/helpers/s3rver-process.mjs"), [directory], {
    execArgv: ["--openssl-legacy-provider"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const started = await Promise.race([
    once(child, "message") as Promise<[{ port: number }]>,
    once(child, "exit").then(([code]) => {
      throw new Error(`s3rver exited with ${String(code)} before listening`);
    }),
  ]);
  project.provide("s3Endpoint", `http://127.0.0.1:${started[0].port}`);
  return async function teardown() {
    const exited = once(child, "exit");
    child.disconnect();
    await exited;
    await fs.rm(directory, { recursive: true, force: true });
  };
}
