import { describe, expect, it } from "vitest";
import { formatLongDate } from "@/lib/format-date";

describe("formatLongDate in the reader's language", () => {
  const date = "2025-03-03T12:00:00Z";

  it("keeps SPEC.md's English, ordinal and all", () => {
    expect(formatLongDate(date, "UTC")).toBe("March 3rd, 2025");
    expect(formatLongDate(date, "UTC", "en")).toBe("March 3rd, 2025");
  });

  it.each([
    ["de", "3. März 2025"],
    ["fr", "3 mars 2025"],
    ["pt-BR", "3 de março de 2025"],
    ["ru", "3 марта 2025 г."],
    ["ja", "2025年3月3日"],
    ["zh-Hant", "2025年3月3日"],
  ])("writes the long date as Intl does in %s", (locale, expected) => {
    expect(formatLongDate(date, "UTC", locale)).toBe(expected);
  });
});
