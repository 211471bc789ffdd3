// Bugs the route fuzzer found, each pinned by a plain test (tests/api/fuzz/routes.test.ts finds
// them again only by chance). The NUL-in-token case lives in tests/api/auth-tokens.test.ts.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createResetToken, RESET_TOKEN_LIFETIME_MS } from "@/lib/server/account/reset-token";
import { hashPassword } from "@/lib/server/auth/password";
import { db } from "@/lib/server/db";
import { api, detailOf } from "../../helpers/api";
import { createUser } from "../../helpers/factories";

vi.mock("@/lib/server/auth/password", async (importOriginal) => {
  const original = await importOriginal<typeof import("@/lib/server/auth/password")>();
  return { ...original, hashPassword: vi.fn(original.hashPassword) };
});

describe("POST /api/account/resetpassword", () => {
  beforeEach(() => {
    vi.mocked(hashPassword).mockClear();
  });

  // The route has no rate limit, and it hashed the new password (argon2id, 19 MiB) before looking
  // at the token: any made-up link cost the server a full hash.
  it.each([
    { name: "a made-up token", token: "x".repeat(43), expired: false, user: "owner" },
    { name: "another user's token", token: "", expired: false, user: "other" },
    { name: "an expired token", token: "", expired: true, user: "owner" },
  ])("refuses $name before any argon2 work", async ({ token, expired, user }) => {
    const [owner, other] = [await createUser(), await createUser()];
    const issued = createResetToken();
    await db.passwordResetToken.create({
      data: {
        userId: (user === "owner" ? owner : other).username,
        tokenHash: issued.tokenHash,
        expiresAt: new Date(Date.now() + (expired ? -1 : 1) * RESET_TOKEN_LIFETIME_MS),
      },
    });
    vi.mocked(hashPassword).mockClear();
    const response = await api.post("/api/account/resetpassword", {
      username: owner.username,
      password: "a brand new password",
      token: token || issued.token,
    });
    expect(response.status).toBe(400);
    expect(detailOf(response)).toBe("This reset link is invalid or has expired");
    expect(hashPassword).not.toHaveBeenCalled();
  });

  it("still hashes and saves the password for a live token (control)", async () => {
    const owner = await createUser();
    const issued = createResetToken();
    await db.passwordResetToken.create({
      data: {
        userId: owner.username,
        tokenHash: issued.tokenHash,
        expiresAt: new Date(Date.now() + RESET_TOKEN_LIFETIME_MS),
      },
    });
    vi.mocked(hashPassword).mockClear();
    const response = await api.post("/api/account/resetpassword", {
      username: owner.username,
      password: "a brand new password",
      token: issued.token,
    });
    expect(response.status).toBe(200);
    expect(hashPassword).toHaveBeenCalledTimes(1);
    const again = await api.post("/api/account/resetpassword", {
      username: owner.username,
      password: "yet another password",
      token: issued.token,
    });
    expect(again.status).toBe(400);
  });
});
