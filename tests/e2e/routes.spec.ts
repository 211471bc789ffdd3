import { expect, test } from "@playwright/test";
import { GUIDES } from "@/components/guides/guide-list";
import { bearer, signUpViaApi } from "./support/session";

// Every route of SPEC.md section 2. The logged-in pages load their data in the browser, so any
// tree or person id gets the page; the public page renders its snapshot on the server, so it is
// checked with a tree that really is published.
const routes = [
  "/",
  "/guides",
  ...GUIDES.map((guide) => `/guides/${guide.slug}`),
  "/signup",
  "/login",
  "/forgot-password",
  "/forgot-username",
  "/reset-password",
  "/reset-password?t=some-token&u=someone",
  "/account",
  "/trees/create",
  "/trees/any-tree-id",
  "/trees/any-tree-id/details",
  "/trees/any-tree-id/publish",
  "/trees/any-tree-id/people",
  "/trees/any-tree-id/people/add",
  "/trees/any-tree-id/people/any-person-id",
  "/trees/any-tree-id/people/any-person-id/link",
  "/version",
];

const unknown = [
  "/no-such-page",
  "/guides/no-such-guide",
  "/guides/create-a-tree/extra",
  "/guides/publishing-trees",
  "/trees/any-tree-id/people/any-person-id/link/extra",
  "/account/extra",
];

for (const route of routes) {
  test(`${route} answers 200 with HTML`, async ({ request }) => {
    const response = await request.get(route, { maxRedirects: 0 });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("text/html");
    expect(await response.text()).toContain("<html");
  });
}

test("/public/{treeId} (with and without ?p=) answers 200 with HTML for a published tree", async ({
  request,
}) => {
  const user = await signUpViaApi(request, "routes");
  const created = await request.post("/api/trees", {
    headers: bearer(user.token),
    data: { title: "Route Check Legacy", description: "", cover: null },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { _id } = (await created.json()) as { _id: string };
  const published = await request.put(`/api/published/${_id}`, { headers: bearer(user.token) });
  expect(published.ok(), await published.text()).toBe(true);

  for (const route of [`/public/${_id}`, `/public/${_id}?p=any-person-id`]) {
    const response = await request.get(route, { maxRedirects: 0 });
    expect(response.status(), route).toBe(200);
    expect(response.headers()["content-type"], route).toContain("text/html");
    expect(await response.text(), route).toContain("Route Check Legacy");
  }
});

for (const route of unknown) {
  test(`${route} answers 404 with the not-found page`, async ({ request }) => {
    const response = await request.get(route, { maxRedirects: 0 });
    expect(response.status()).toBe(404);
    expect(response.headers()["content-type"]).toContain("text/html");
    expect(await response.text()).toContain("This page does not exist");
  });
}
