// The Open Graph image of a published tree (issue 6): a 1200×630 PNG made with next/og from the
// title, the cover and the number of Sims, used by /public/{treeId}'s og:image when the tree has
// no cover; 404 for a tree that is not published.
import { expect, test } from "@playwright/test";
import sharp from "sharp";
import {
  createPersonViaApi,
  createTreeViaApi,
  publishViaApi,
  testImage,
  uploadViaApi,
} from "./tree-fixtures";
import { bearer, signUpViaApi } from "./support/session";

const meta = (html: string, property: string) =>
  new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`).exec(html)?.[1];

async function pngOf(
  response: Awaited<ReturnType<import("@playwright/test").APIRequestContext["get"]>>,
) {
  expect(response.status(), await response.text().catch(() => "")).toBe(200);
  expect(response.headers()["content-type"]).toBe("image/png");
  const body = await response.body();
  const { width, height, format } = await sharp(body).metadata();
  return { body, width, height, format };
}

test("a published tree without a cover links its generated Open Graph image", async ({
  request,
  baseURL,
}) => {
  const user = await signUpViaApi(request, "og");
  const tree = await createTreeViaApi(request, user.token, {
    title: "The Pancakes & <Friends> 🥞",
  });
  for (const firstName of ["Bob", "Eliza", "Bobby"]) {
    await createPersonViaApi(request, user.token, tree._id, { firstName, lastName: "Pancakes" });
  }

  // Not published yet: no image.
  const before = await request.get(`/api/published/${tree._id}/og`);
  expect(before.status()).toBe(404);
  expect(await before.json()).toEqual({ errors: [{ detail: "This tree is not published" }] });
  expect((await request.get("/api/published/not-a-tree/og")).status()).toBe(404);

  const { lastPublishDate } = await publishViaApi(request, user.token, tree._id);
  const html = await (await request.get(`/public/${tree._id}`)).text();
  const image = meta(html.split("</head>")[0]!, "og:image")?.replace(/&amp;/g, "&");
  expect(image).toBe(
    `${baseURL}/api/published/${tree._id}/og?v=${encodeURIComponent(lastPublishDate)}`,
  );
  expect(meta(html, "og:image:width")).toBe("1200");
  expect(meta(html, "og:image:height")).toBe("630");
  expect(meta(html, "twitter:image")?.replace(/&amp;/g, "&")).toBe(image);

  const png = await pngOf(await request.get(image!));
  expect(png).toMatchObject({ format: "png", width: 1200, height: 630 });

  // Unpublished again: gone.
  await request.delete(`/api/published/${tree._id}`, { headers: bearer(user.token) });
  expect((await request.get(image!)).status()).toBe(404);
});

test("a published tree with a cover keeps the cover as og:image, and its card shows the cover", async ({
  request,
  baseURL,
}) => {
  const user = await signUpViaApi(request, "ogcover");
  const cover = await uploadViaApi(
    request,
    user.token,
    "cover",
    await testImage("cover.png", { r: 20, g: 180, b: 40 }, "png", { width: 1200, height: 640 }),
  );
  const tree = await createTreeViaApi(request, user.token, { title: "Green Legacy", cover });
  await createPersonViaApi(request, user.token, tree._id, { firstName: "Sage", lastName: "Green" });
  await publishViaApi(request, user.token, tree._id);

  const html = await (await request.get(`/public/${tree._id}`)).text();
  expect(meta(html, "og:image")).toBe(`${baseURL}/api/upload/1200x640/${cover}`);

  const png = await pngOf(await request.get(`/api/published/${tree._id}/og`));
  expect(png).toMatchObject({ width: 1200, height: 630 });
  // The cover is drawn: many pixels of its green.
  const { data, info } = await sharp(png.body).raw().toBuffer({ resolveWithObject: true });
  let green = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    if (data[i]! < 60 && data[i + 1]! > 150 && data[i + 2]! < 80) green += 1;
  }
  expect(green).toBeGreaterThan(50_000);
});
