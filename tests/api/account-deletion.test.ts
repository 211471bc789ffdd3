import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getStorage } from "@/lib/server/storage";
import { variantKey } from "@/lib/server/uploads/delete-upload-files";
import { masterKey } from "@/lib/server/uploads/image-files";
import { api, call } from "../helpers/api";
import { makePng } from "../helpers/upload-fixtures";

async function signUp() {
  const username = `del_${randomUUID().slice(0, 10)}`;
  const password = "correct horse battery";
  const response = await api.post<{ token: string }>("/api/account/signup", {
    username,
    email: `${username}@example.com`,
    password,
  });
  expect(response.status).toBe(200);
  return { username, password, token: response.body.token };
}

async function uploadAvatar(token: string): Promise<string> {
  const url = await api.get<{ filename: string; uploadURL: string }>(
    "/api/upload/url?type=image/png&dir=avatar",
    { token },
  );
  expect(url.status).toBe(200);
  const target = new URL(url.body.uploadURL);
  const put = await call("PUT", target.pathname + target.search, {
    rawBody: new Uint8Array(await makePng(300, 300)),
    headers: { "content-type": "image/png" },
  });
  expect(put.status).toBe(200);
  return url.body.filename;
}

describe("DELETE /api/account", () => {
  it("deletes the account's stored images and their resized copies", async () => {
    const user = await signUp();
    const filename = await uploadAvatar(user.token);
    expect((await api.get(`/api/upload/200x200/${filename}`)).status).toBe(200);
    const storage = getStorage();
    expect(await storage.get(masterKey(filename))).not.toBeNull();
    expect(await storage.get(variantKey("200x200", filename))).not.toBeNull();

    const deleted = await api.delete(
      "/api/account",
      { password: user.password },
      { token: user.token },
    );
    expect(deleted.status).toBe(200);

    expect(await storage.get(masterKey(filename))).toBeNull();
    expect(await storage.get(variantKey("200x200", filename))).toBeNull();
    expect((await api.get(`/api/upload/orig/${filename}`)).status).toBe(404);
    expect((await api.get("/api/user", { token: user.token })).status).toBe(403);
  });
});
