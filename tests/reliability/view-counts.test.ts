// View counts across restarts of the real production server (issue 14, ADR 014): public page
// views are counted in memory and written every VIEW_FLUSH_MS. A clean stop (SIGTERM) writes the
// rest before the database closes, so it loses nothing; a crash (SIGKILL) loses at most the views
// of the last interval.
import { afterAll, beforeAll, expect, test } from "vitest";
import { VIEW_FLUSH_MS } from "@/lib/server/published/view-counter";
import { createTree, request, signUp } from "./support/client";
import {
  AppServer,
  createDatabase,
  dropDatabase,
  ensureBuild,
  pickPort,
  removeTempDirs,
  tempDir,
} from "./support/server";

const DATABASE = `heirloom_views_${process.pid}`;
let server: AppServer;
let base: string;

beforeAll(async () => {
  ensureBuild();
  server = new AppServer({
    port: pickPort(4_700),
    databaseUrl: await createDatabase(DATABASE),
    dataDir: tempDir("views"),
  });
  base = server.url;
  await server.start();
});

afterAll(async () => {
  await server?.stop();
  await dropDatabase(DATABASE);
  removeTempDirs();
});

async function viewCount(treeId: string): Promise<number> {
  const answer = await request<{ viewCount: number }>(base, "GET", `/api/published/${treeId}`);
  expect(answer.status).toBe(200);
  return answer.body!.viewCount;
}

async function view(treeId: string, times: number) {
  for (let index = 0; index < times; index += 1) {
    const answer = await request(base, "GET", `/public/${treeId}`);
    expect(answer.status).toBe(200);
  }
}

test("a clean restart keeps every view; a crash loses at most the last interval's", async () => {
  const token = await signUp(base, "views");
  const tree = await createTree(base, token, "Counted Legacy");
  const published = await request(base, "PUT", `/api/published/${tree._id}`, { token });
  expect(published.status).toBe(200);

  // Served from memory and counted there: a batch is written at most every VIEW_FLUSH_MS.
  await view(tree._id, 30);
  await server.stop();
  await server.start();
  expect(await viewCount(tree._id)).toBe(30);

  // Views one interval before the crash are written; the crash may take the last ones with it.
  await view(tree._id, 20);
  await new Promise((resolve) => setTimeout(resolve, VIEW_FLUSH_MS * 1.5));
  await view(tree._id, 10);
  await server.kill("SIGKILL");
  await server.start();
  const afterCrash = await viewCount(tree._id);
  expect(afterCrash).toBeGreaterThanOrEqual(30 + 20);
  expect(afterCrash).toBeLessThanOrEqual(30 + 20 + 10);
});
