import { describe, expect, it } from "vitest";
import { htmlToPlainText, truncateText } from "./plain-text";

describe("htmlToPlainText", () => {
  it.each([
    ["", ""],
    ["<p>The <strong>Goth</strong> legacy</p>", "The Goth legacy"],
    ["<p>One</p><p>Two</p>", "One Two"],
    ["<ul><li><p>Bella</p></li><li><p>Mortimer</p></li></ul>", "Bella Mortimer"],
    ["<p>b<em>o</em>ld</p>", "bold"],
    [
      "<p>Tom &amp; Jerry &lt;3 &quot;hi&quot; &#39;x&#39; &#x1F333;</p>",
      `Tom & Jerry <3 "hi" 'x' 🌳`,
    ],
    ["<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>", "<script>alert(1)</script>"],
    ["<p>a&nbsp;b   \n c</p>", "a b c"],
    ["<p>&unknown; &#0; &#x110000;</p>", "&unknown; &#0; &#x110000;"],
    ["<script>alert(1)</script><p>safe</p>", "safe"],
  ])("%j → %j", (html, expected) => {
    expect(htmlToPlainText(html)).toBe(expected);
  });
});

describe("truncateText", () => {
  it("keeps short text as it is", () => {
    expect(truncateText("A short story", 20)).toBe("A short story");
    expect(truncateText("x".repeat(20), 20)).toBe("x".repeat(20));
  });

  it("cuts at a word boundary and adds an ellipsis", () => {
    const text = "The Goths have lived in Willow Creek for generations";
    const short = truncateText(text, 30);
    expect(short).toBe("The Goths have lived in…");
    expect(Array.from(short).length).toBeLessThanOrEqual(30);
  });

  it("cuts a long word where it must", () => {
    expect(truncateText("x".repeat(50), 10)).toBe(`${"x".repeat(9)}…`);
  });

  it("never splits an emoji", () => {
    const short = truncateText("🌳".repeat(20), 5);
    expect(short).toBe("🌳🌳🌳🌳…");
  });
});
