/** The `ETag` of a tree version; `If-Match` sends it back. */
export const treeEtag = (version: number) => `"${version}"`;
