import { expect, test } from "@playwright/test";
import { testImage, uploadViaApi } from "./tree-fixtures";
import { signUpViaApi } from "./support/session";

// The spec's image addresses, served by the production server through its rewrites.
test("an uploaded image is served at /uploads, /uploads-orig and its resized address", async ({
  request,
}) => {
  const user = await signUpViaApi(request, "images");
  const filename = await uploadViaApi(
    request,
    user.token,
    "avatar",
    await testImage("a.png", { r: 120, g: 40, b: 120 }),
  );

  for (const path of [
    `/uploads/${filename}`,
    `/uploads-orig/${filename}`,
    `/api/upload/200x200/${filename}`,
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    expect(response.headers()["content-type"], path).toBe("image/png");
    expect(response.headers()["x-content-type-options"], path).toBe("nosniff");
    expect(response.headers()["cache-control"], path).toContain("immutable");
    expect((await response.body()).subarray(1, 4).toString("latin1"), path).toBe("PNG");
  }
  expect((await request.get("/uploads/avatar/no-such-image.png")).status()).toBe(404);
});
