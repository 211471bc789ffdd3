import "server-only";
import sanitizeHtml from "sanitize-html";
import { RICH_TEXT_TAGS } from "@/lib/schemas/rich-text";

/** SPEC.md section 9: "Rich text list depth: 4". */
export const MAX_LIST_DEPTH = 4;

/** Any tag nested deeper than this is unwrapped (its text kept); real editor output stays far below. */
const MAX_NESTING = 64;

const LISTS = new Set(["ul", "ol"]);
// Not in the allow-list, so sanitize-html drops the tag and keeps its content.
const UNWRAPPED = "heirloom-unwrapped";

/**
 * Sanitizes rich text (tree descriptions, person bios) with an allow-list: the tiptap marks,
 * paragraphs and lists only, with no attributes at all, so no event handlers, styles or URLs.
 * Text is escaped. Lists nested deeper than 4 are flattened: their `ul`/`ol`/`li` tags are
 * dropped and their content (tiptap wraps each item in a `<p>`) stays in the 4th-level item.
 */
export function sanitizeRichText(html: string): string {
  // list depth at the current parser position, tracked on the raw tags (before transforms)
  let listDepth = 0;
  const flattenWhenTooDeep = (tagName: string) => ({
    tagName: listDepth > MAX_LIST_DEPTH ? UNWRAPPED : tagName,
    attribs: {},
  });
  return sanitizeHtml(html, {
    allowedTags: [...RICH_TEXT_TAGS],
    allowedAttributes: {},
    allowedSchemes: [],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    nestingLimit: MAX_NESTING,
    parseStyleAttributes: false,
    onOpenTag: (name) => {
      if (LISTS.has(name)) listDepth += 1;
    },
    onCloseTag: (name) => {
      if (LISTS.has(name)) listDepth = Math.max(0, listDepth - 1);
    },
    // onOpenTag runs first, so a list's own depth is already counted when it is transformed
    transformTags: { ul: flattenWhenTooDeep, ol: flattenWhenTooDeep, li: flattenWhenTooDeep },
  });
}
