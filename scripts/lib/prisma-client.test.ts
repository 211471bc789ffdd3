// #32 finding 11: after a `git pull` that changes prisma/schema.prisma, `npm start` (and
// `npm run dev`, db:migrate) generates the Prisma client again, and only then.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  clientStamp,
  ensureClient,
  generateClient,
  STAMP_FILE,
  staleReason,
} from "./prisma-client";

let root = "";
let generated = 0;
/** Stands in for `prisma generate`: writes a client and counts the runs. */
const fakeGenerate = (at: string) => {
  generated += 1;
  fs.mkdirSync(path.join(at, "lib/generated/prisma"), { recursive: true });
  fs.writeFileSync(path.join(at, "lib/generated/prisma/client.ts"), `// run ${generated}\n`);
};
const writeSchema = (text: string) =>
  fs.writeFileSync(path.join(root, "prisma/schema.prisma"), text);
const writeVersion = (pkg: string, version: string) => {
  fs.mkdirSync(path.join(root, "node_modules", pkg), { recursive: true });
  fs.writeFileSync(
    path.join(root, "node_modules", pkg, "package.json"),
    JSON.stringify({ version }),
  );
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "heirloom-client-"));
  fs.mkdirSync(path.join(root, "prisma"));
  writeSchema("model User { id String @id }\n");
  writeVersion("prisma", "7.10.0");
  writeVersion("@prisma/client", "7.10.0");
  generated = 0;
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("ensureClient", () => {
  it("generates a client that is missing, and records the schema it was made from", () => {
    expect(ensureClient(root, fakeGenerate)).toBe("there is no generated client yet");
    expect(generated).toBe(1);
    expect(fs.readFileSync(path.join(root, STAMP_FILE), "utf8").trim()).toBe(clientStamp(root));
    expect(staleReason(root)).toBeNull();
  });

  it("does nothing when the schema has not changed since the last generate", () => {
    generateClient(root, fakeGenerate);
    expect(ensureClient(root, fakeGenerate)).toBeNull();
    expect(generated).toBe(1);
  });

  it("generates again after a pull that changed the schema (a new column)", () => {
    generateClient(root, fakeGenerate);
    writeSchema("model User { id String @id\n  locale String? }\n");
    expect(ensureClient(root, fakeGenerate)).toBe(
      "prisma/schema.prisma changed since it was generated",
    );
    expect(generated).toBe(2);
    expect(ensureClient(root, fakeGenerate)).toBeNull();
    expect(generated).toBe(2);
  });

  it("generates again after an install that changed Prisma's version", () => {
    generateClient(root, fakeGenerate);
    writeVersion("@prisma/client", "7.11.0");
    expect(ensureClient(root, fakeGenerate)).not.toBeNull();
    expect(generated).toBe(2);
  });

  it("generates a client made before stamps existed (by an older npm install) once", () => {
    fakeGenerate(root);
    expect(ensureClient(root, fakeGenerate)).toBe(
      "the generated client does not say which schema it was made from",
    );
    expect(ensureClient(root, fakeGenerate)).toBeNull();
    expect(generated).toBe(2);
  });

  it("keeps the old stamp when prisma generate fails, so the next start tries again", () => {
    generateClient(root, fakeGenerate);
    writeSchema("model User { id String @id\n  broken }\n");
    expect(() =>
      ensureClient(root, () => {
        throw new Error("prisma generate failed");
      }),
    ).toThrow("prisma generate failed");
    expect(staleReason(root)).toBe("prisma/schema.prisma changed since it was generated");
    expect(fs.existsSync(path.join(root, "lib/generated/.generate-lock"))).toBe(false);
  });
});
