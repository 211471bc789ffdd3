import "server-only";
import fs from "node:fs";
import path from "node:path";
import Markdown, { type Components } from "react-markdown";
import { TextLink } from "@/components/ui/button";
import type { GuideSlug } from "./guide-list";
import { Note, Ui } from "./prose";

/** Where the guides' text lives: one Markdown file per guide, named by its slug. */
export const GUIDES_DIR = path.join(process.cwd(), "content", "guides");

interface MarkdownNode {
  type: string;
  value?: string;
  children?: MarkdownNode[];
  data?: { hProperties?: Record<string, string> };
}

const NOTE_MARKER = /^\[!(TIP|WARNING)\]\s*/;

/** `> [!TIP]` and `> [!WARNING]` blockquotes (GitHub's alert syntax) become the guides' notes. */
function remarkNotes() {
  return (tree: MarkdownNode) => {
    for (const node of tree.children ?? []) {
      const first = node.type === "blockquote" ? node.children?.[0]?.children?.[0] : undefined;
      const match = first?.type === "text" ? NOTE_MARKER.exec(first.value ?? "") : null;
      if (!first || !match) continue;
      first.value = first.value?.slice(match[0].length);
      node.data = { hProperties: { "data-tone": match[1] === "WARNING" ? "warning" : "tip" } };
    }
  };
}

const components: Components = {
  a: ({ href, children }) => <TextLink href={href ?? "/guides"}>{children}</TextLink>,
  // Bold text in a guide names something on screen: a button, a menu item, a field.
  strong: ({ children }) => <Ui>{children}</Ui>,
  code: ({ children }) => <code className="break-all">{children}</code>,
  blockquote: (props) => (
    <Note tone={(props as { "data-tone"?: string })["data-tone"] === "warning" ? "warning" : "tip"}>
      {props.children}
    </Note>
  ),
};

/** A guide's text, read from content/guides/<slug>.md and rendered on the server. */
export function GuideMarkdown({ slug }: { slug: GuideSlug }) {
  const text = fs.readFileSync(path.join(GUIDES_DIR, `${slug}.md`), "utf8");
  return (
    <Markdown remarkPlugins={[remarkNotes]} components={components}>
      {text}
    </Markdown>
  );
}
