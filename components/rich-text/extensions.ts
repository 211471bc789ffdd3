import StarterKit from "@tiptap/starter-kit";
import { ListDepthLimit } from "./list-depth";

/**
 * The rich text the product allows (SPEC.md section 3): bold, italic, underline, strike, and
 * bullet and ordered lists nested at most four deep. Everything else StarterKit offers is off, so
 * the editor never produces markup the server's sanitizer would strip.
 */
export const richTextExtensions = [
  StarterKit.configure({
    heading: false,
    blockquote: false,
    code: false,
    codeBlock: false,
    horizontalRule: false,
    link: false,
  }),
  ListDepthLimit,
];
