/** Typography for rich text (Tailwind's preflight strips list and paragraph styles). */
export const RICH_TEXT_CLASSES =
  "break-words [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-1 [&_ul]:list-disc [&_ul]:pl-6 [&_ul_ul]:list-[circle] [&_ul_ul_ul]:list-[square]";

/**
 * Shows a description or bio. The HTML was sanitized by the server with an allow-list (tiptap's
 * marks and lists only) before it was stored, which is what makes rendering it as HTML safe here;
 * nothing else in the app is rendered this way.
 */
export function RichTextContent({ html, className = "" }: { html: string; className?: string }) {
  if (!html) return null;
  return (
    <div
      data-rich-text=""
      className={`${RICH_TEXT_CLASSES} ${className}`}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
