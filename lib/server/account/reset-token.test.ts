import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createResetToken, hashResetToken, resetPasswordLink } from "./reset-token";

describe("reset tokens", () => {
  it("are 32 random bytes in base64url, different every time", () => {
    const tokens = Array.from({ length: 50 }, () => createResetToken().token);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, "base64url")).toHaveLength(32);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it("are stored as their SHA-256 only", () => {
    const { token, tokenHash } = createResetToken();
    expect(tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(tokenHash).not.toContain(token);
    expect(hashResetToken(token)).toBe(tokenHash);
  });

  it("travel in a link with t and an encoded u", () => {
    const link = new URL(resetPasswordLink("https://heirloom.example", "Anna.B-1", "abc_-9"));
    expect(link.origin + link.pathname).toBe("https://heirloom.example/reset-password");
    expect(link.searchParams.get("t")).toBe("abc_-9");
    expect(link.searchParams.get("u")).toBe("Anna.B-1");
    expect(resetPasswordLink("https://h.example", "a&b c", "t")).toBe(
      "https://h.example/reset-password?t=t&u=a%26b%20c",
    );
  });
});
