/**
 * The `ETag` of a tree: its structure version and its details version, `"<version>-<details>"`
 * (ADR 005). A structure save compares the first part of `If-Match` (or a bare `"<version>"`), a
 * details update the second, so an autosave and a title change never refuse each other.
 */
export const treeEtag = (version: number, detailsVersion: number) =>
  `"${version}-${detailsVersion}"`;
