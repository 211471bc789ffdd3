import "server-only";
import { ApiError } from "@/lib/server/http/errors";

const TREE_TAG = /^(?:W\/)?"?(\d{1,9})(?:-(\d{1,9}))?"?$/;

/** The parts of a tree's `If-Match`, `"<version>-<details>"` or a bare `"<version>"`; null for none. */
function treeTagFrom(header: string | null): { version: number; details?: number } | null {
  const value = header?.trim();
  if (!value || value === "*") return null;
  const match = TREE_TAG.exec(value);
  if (!match?.[1]) {
    throw new ApiError(400, 'If-Match must be a tree version, e.g. "3" (the ETag of the tree)');
  }
  return { version: Number(match[1]), details: match[2] ? Number(match[2]) : undefined };
}

/**
 * The structure version a save expects, from `If-Match` (the tree's ETag `"<version>-<details>"`,
 * or `"<version>"` alone: quoted, weak or bare). Without the header, or with `*`, any version is
 * accepted, so a client that knows only SPEC.md works.
 */
export function expectedVersionFrom(header: string | null): number | undefined {
  return treeTagFrom(header)?.version;
}

/**
 * The details version a details update expects, from `If-Match` (the tree's ETag). Without the
 * header, or with `*`, any is accepted. A bare `"<version>"` names only the structure, which a
 * details update does not compare: it is refused rather than silently ignored.
 */
export function expectedDetailsVersionFrom(header: string | null): number | undefined {
  const tag = treeTagFrom(header);
  if (!tag) return undefined;
  if (tag.details === undefined) {
    throw new ApiError(
      400,
      'If-Match of a details update must be the ETag of the tree, e.g. "3-1" (a bare "3" is only the structure\'s version)',
    );
  }
  return tag.details;
}

/**
 * The version of a person a PUT expects, from `If-Match: "<version>"` (the person's ETag); none,
 * or `*`, accepts any.
 */
export function expectedPersonVersionFrom(header: string | null): number | undefined {
  const value = header?.trim();
  if (!value || value === "*") return undefined;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(value);
  if (!match?.[1]) {
    throw new ApiError(400, 'If-Match must be a person version, e.g. "3" (the ETag of the person)');
  }
  return Number(match[1]);
}
