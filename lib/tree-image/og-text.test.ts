import { describe, expect, it } from "vitest";
import { ogText, simCount } from "./og-text";

describe("ogText", () => {
  it.each([
    ["The Goth Legacy", "The Goth Legacy"],
    ["Ünïcødé Łegacy – Ђорђе", "Ünïcødé Łegacy – Ђорђе"],
    ["Plumbob 🌳 Legacy", "Plumbob Legacy"],
    ["家族 Legacy", "Legacy"],
    ["  spaced\n\tout  ", "spaced out"],
    ["🌳🌳", ""],
  ])("%j → %j", (text, drawn) => expect(ogText(text)).toBe(drawn));
});

describe("simCount", () => {
  it.each([
    [0, "0 Sims"],
    [1, "1 Sim"],
    [1234, "1,234 Sims"],
  ])("%d → %j", (count, text) => expect(simCount(count)).toBe(text));
});
