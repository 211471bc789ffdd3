import "server-only";
import { ApiError } from "@/lib/server/errors";

/**
 * The tree version a save expects, from `If-Match: "<version>"` (quoted, weak or bare). Without
 * the header, or with `*`, any version is accepted, so a client that knows only SPEC.md works.
 */
export function expectedVersionFrom(header: string | null): number | undefined {
  const value = header?.trim();
  if (!value || value === "*") return undefined;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(value);
  if (!match?.[1]) {
    throw new ApiError(400, 'If-Match must be a tree version, e.g. "3" (the ETag of the tree)');
  }
  return Number(match[1]);
}
