// Helpers for the editor specs: a tree with people seeded through the API, and the editor's
// own waits (autosave, the painted canvas).
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "@playwright/test";
import type { Person } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { createPersonViaApi, createTreeViaApi, node, type PersonInput } from "../tree-fixtures";
import { bearer } from "./session";

export { node };

/** A tree and the named people in it, created through the API. */
export async function seedTree<K extends string>(
  request: APIRequestContext,
  token: string,
  title: string,
  people: Record<K, PersonInput>,
): Promise<{ tree: Tree; people: Record<K, Person> }> {
  const tree = await createTreeViaApi(request, token, { title });
  const created = {} as Record<K, Person>;
  for (const [key, input] of Object.entries(people) as [K, PersonInput][]) {
    created[key] = await createPersonViaApi(request, token, tree._id, input);
  }
  return { tree, people: created };
}

/** Replaces a tree's data through the API; answers the new version. */
export async function putTreeData(
  request: APIRequestContext,
  token: string,
  treeId: string,
  data: TreeNode,
): Promise<number> {
  const response = await request.patch(`/api/trees/${treeId}`, {
    data: { data },
    headers: bearer(token),
  });
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { version: number }).version;
}

export async function getTree(
  request: APIRequestContext,
  token: string,
  treeId: string,
): Promise<Tree> {
  const response = await request.get(`/api/trees/${treeId}`, { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as Tree;
}

/** The editor's canvas, once it is on screen. */
export async function openEditor(page: Page, tree: { _id: string; title: string }) {
  await page.goto(`/trees/${tree._id}`);
  const canvas = page.getByRole("application", { name: `Family tree: ${tree.title}` });
  await expect(canvas).toBeVisible();
  return canvas;
}

/** Waits for the debounced autosave to reach the server. */
export async function waitForSaved(page: Page) {
  await expect(page.locator("[data-save-status]")).toHaveText("All changes saved");
}

/** A Sim's people as refs, for tree data written by a test. */
export const ref = (person: { _id: string }) => ({ _id: person._id });
