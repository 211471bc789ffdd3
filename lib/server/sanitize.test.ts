import { describe, expect, it } from "vitest";
import { RICH_TEXT_TAGS } from "@/lib/schemas/rich-text";
import { MAX_LIST_DEPTH, sanitizeRichText } from "./sanitize";

/** `depth` lists nested tiptap-style, each item holding a paragraph "level N". */
function nestedList(depth: number, tag = "ul"): string {
  let html = "";
  for (let level = depth; level >= 1; level--) {
    html = `<${tag}><li><p>level ${level}</p>${html}</li></${tag}>`;
  }
  return html;
}

const maxListDepth = (html: string): number => {
  let depth = 0;
  let max = 0;
  for (const [, close, name] of html.matchAll(/<(\/?)(ul|ol)>/g)) {
    if (name === undefined) continue;
    depth += close ? -1 : 1;
    max = Math.max(max, depth);
  }
  return max;
};

/** Every tag in the output is on the allow-list and carries no attribute. */
function expectOnlyBareAllowedTags(html: string) {
  for (const [tag] of html.matchAll(/<[^>]*>/g)) {
    expect(tag).toMatch(/^<\/?([a-z]+)\s*\/?>$/);
    const name = /^<\/?([a-z]+)/.exec(tag)?.[1];
    expect(RICH_TEXT_TAGS).toContain(name);
  }
}

describe("sanitizeRichText", () => {
  it("keeps the tiptap StarterKit output as it is", () => {
    const html =
      "<p>Hello <strong>bold</strong> <em>italic</em> <u>under</u> <s>strike</s><br>next</p>" +
      "<ol><li><p>one</p><ul><li><p>two</p></li></ul></li></ol>" +
      "<p><b>b</b><i>i</i><strike>x</strike><del>d</del></p>";
    expect(sanitizeRichText(html)).toBe(html.replace("<br>", "<br />"));
  });

  it.each([
    ["<script>alert(1)</script>", ""],
    ["<p>hi<script>alert(1)</script></p>", "<p>hi</p>"],
    ['<img src=x onerror="alert(1)">', ""],
    ["<svg onload=alert(1)><circle /></svg>", ""],
    ['<a href="javascript:alert(1)">click</a>', "click"],
    ['<a href="https://example.com">site</a>', "site"],
    ['<iframe src="https://evil.example"></iframe>', ""],
    ['<p style="background:url(javascript:alert(1))" onclick="alert(1)">x</p>', "<p>x</p>"],
    ['<strong class="x" id="y" data-x="1">b</strong>', "<strong>b</strong>"],
    ["<style>p { color: red }</style><p>x</p>", "<p>x</p>"],
    ["<textarea><script>alert(1)</script></textarea>", ""],
    ['<math><mi xlink:href="javascript:alert(1)">x</mi></math>', "x"],
    ['<form action="javascript:alert(1)"><input autofocus onfocus=alert(1)></form>', ""],
    ['<object data="javascript:alert(1)"></object><embed src=x>', ""],
    ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ""],
    ["<p>1 < 2 & 3 > 2</p>", "<p>1 &lt; 2 &amp; 3 &gt; 2</p>"],
    ["&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;script&gt;alert(1)&lt;/script&gt;"],
    ["<scr<script>ipt>alert(1)</script>", "ipt&gt;alert(1)"],
    ["<p>unclosed <strong>bold", "<p>unclosed <strong>bold</strong></p>"],
    ["<!-- <script>alert(1)</script> --><p>x</p>", "<p>x</p>"],
    ["<h1>Title</h1><blockquote>q</blockquote><code>c</code>", "Titleqc"],
  ])("sanitizes %s", (input, expected) => {
    const output = sanitizeRichText(input);
    expect(output).toBe(expected);
    expect(output).not.toMatch(/<script/i);
    expect(output).not.toMatch(/\son\w+=/i);
    expectOnlyBareAllowedTags(output);
  });

  it("keeps lists nested 4 deep", () => {
    const html = nestedList(MAX_LIST_DEPTH);
    expect(sanitizeRichText(html)).toBe(html);
  });

  it.each(["ul", "ol"])(
    "flattens %s nested deeper than 4 into the 4th-level item, keeping the text",
    (tag) => {
      const output = sanitizeRichText(nestedList(6, tag));
      expect(maxListDepth(output)).toBe(MAX_LIST_DEPTH);
      expect(output).toContain("<li><p>level 4</p><p>level 5</p><p>level 6</p></li>");
      for (let level = 1; level <= 6; level++) expect(output).toContain(`level ${level}`);
    },
  );

  it("counts depth across mixed ordered and unordered lists", () => {
    const html =
      "<ul><li><ol><li><ul><li><ol><li>four<ul><li>five</li></ul></li></ol></li></ul></li></ol></li></ul>";
    const output = sanitizeRichText(html);
    expect(maxListDepth(output)).toBe(4);
    expect(output).toContain("<li>fourfive</li>");
  });

  it("resets the depth after a deep list closes", () => {
    const output = sanitizeRichText(nestedList(6) + nestedList(2));
    expect(output.endsWith(nestedList(2))).toBe(true);
  });

  it("survives hostile nesting without blowing the stack", () => {
    const deep = "<ul><li>".repeat(5_000) + "x" + "</li></ul>".repeat(5_000);
    const output = sanitizeRichText(deep);
    expect(maxListDepth(output)).toBeLessThanOrEqual(MAX_LIST_DEPTH);
    expect(output).toContain("x");
    const bold = "<b>".repeat(10_000) + "y";
    expect(sanitizeRichText(bold)).toContain("y");
  });

  it("is idempotent", () => {
    const input =
      '<p onclick="x">a<script>b</script></p>' + nestedList(7) + "<img src=x onerror=alert(1)>";
    const once = sanitizeRichText(input);
    expect(sanitizeRichText(once)).toBe(once);
  });
});
