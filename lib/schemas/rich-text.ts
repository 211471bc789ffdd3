/** What the tiptap StarterKit editor produces for Heirloom's rich text (SPEC.md section 3). */
export const RICH_TEXT_TAGS = [
  "p",
  "br",
  "strong",
  "b",
  "em",
  "i",
  "u",
  "s",
  "strike",
  "del",
  "ul",
  "ol",
  "li",
] as const;
