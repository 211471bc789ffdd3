// API shortcuts and test images for the tree, people and publishing specs. The screens under test
// go through the browser; what a test merely needs to exist is made here, through the API.
import type { APIRequestContext } from "@playwright/test";
import { expect } from "@playwright/test";
import sharp from "sharp";
import type { Person, PersonLink } from "@/lib/schemas/person";
import type { Tree, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { bearer } from "./support/session";

/** A small solid-colour image, as a file Playwright can put in a file input. */
export async function testImage(
  name: string,
  color: { r: number; g: number; b: number },
  format: "png" | "jpeg" = "png",
  size = { width: 480, height: 360 },
) {
  const image = sharp({ create: { ...size, channels: 3, background: color } });
  const buffer = await (format === "png" ? image.png() : image.jpeg()).toBuffer();
  return { name, mimeType: format === "png" ? "image/png" : "image/jpeg", buffer };
}

async function ok<T>(response: Awaited<ReturnType<APIRequestContext["get"]>>): Promise<T> {
  expect(response.ok(), `${response.url()} → ${response.status()}: ${await response.text()}`).toBe(
    true,
  );
  return (await response.json()) as T;
}

/** Uploads an image the way the client does: a signed URL, then one PUT of the file. */
export async function uploadViaApi(
  request: APIRequestContext,
  token: string,
  dir: "avatar" | "cover",
  file: { mimeType: string; buffer: Buffer },
): Promise<string> {
  const { filename, uploadURL } = await ok<{ filename: string; uploadURL: string }>(
    await request.get(`/api/upload/url?type=${encodeURIComponent(file.mimeType)}&dir=${dir}`, {
      headers: bearer(token),
    }),
  );
  const put = await request.put(uploadURL, {
    data: file.buffer,
    headers: { "content-type": file.mimeType },
  });
  expect(put.ok(), await put.text()).toBe(true);
  return filename;
}

export async function createTreeViaApi(
  request: APIRequestContext,
  token: string,
  body: { title: string; description?: string; cover?: string | null },
): Promise<Tree> {
  return ok<Tree>(await request.post("/api/trees", { data: body, headers: bearer(token) }));
}

export async function saveTreeDataViaApi(
  request: APIRequestContext,
  token: string,
  treeId: string,
  data: Partial<TreeNode>,
): Promise<void> {
  await ok(await request.patch(`/api/trees/${treeId}`, { data: { data }, headers: bearer(token) }));
}

export type PersonInput = Partial<Omit<Person, "_id" | "tree" | "links">>;

export async function createPersonViaApi(
  request: APIRequestContext,
  token: string,
  treeId: string,
  person: PersonInput,
): Promise<Person> {
  return ok<Person>(
    await request.post("/api/people", {
      data: { tree: treeId, ...person },
      headers: bearer(token),
    }),
  );
}

export async function getPersonViaApi(
  request: APIRequestContext,
  token: string,
  personId: string,
): Promise<Person> {
  return ok<Person>(await request.get(`/api/people/${personId}`, { headers: bearer(token) }));
}

export async function setLinksViaApi(
  request: APIRequestContext,
  token: string,
  personId: string,
  links: PersonLink[],
): Promise<void> {
  await ok(
    await request.put(`/api/people/${personId}`, { data: { links }, headers: bearer(token) }),
  );
}

export async function publishViaApi(
  request: APIRequestContext,
  token: string,
  treeId: string,
): Promise<{ lastPublishDate: string }> {
  return ok(await request.put(`/api/published/${treeId}`, { headers: bearer(token) }));
}

/** The view count of a published tree, read through the public API. */
export async function viewCountOf(request: APIRequestContext, treeId: string): Promise<number> {
  const { viewCount } = await ok<{ viewCount: number }>(
    await request.get(`/api/published/${treeId}`),
  );
  return viewCount;
}

/** A node of tree data with defaults for everything not given. */
export function node(person: { _id: string } | null, extra: Partial<TreeNode> = {}): TreeNode {
  return { ...emptyNode(), person: person ? { _id: person._id } : null, ...extra };
}
