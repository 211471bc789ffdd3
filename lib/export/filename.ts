/** A download name from a tree title: lowercase ASCII words joined by "-", never empty. */
export function exportFileName(title: string, extension: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return `${slug || "heirloom-tree"}.${extension}`;
}
