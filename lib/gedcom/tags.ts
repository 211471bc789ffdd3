// Heirloom's GEDCOM 7 extension tags (docs/decisions/007-gedcom-placement.md). The export
// declares each in HEAD.SCHMA; the import recognises them by tag, whatever URI a file gives.

/** Base of the extension URIs. They identify the tags; nothing is fetched from them. */
export const HEIRLOOM_SCHEMA_BASE = "https://heirloom.example/gedcom/v1/";

export const HEIRLOOM_TAGS = {
  /** HEAD: the tree's title. */
  title: "_HEIRLOOM_TITLE",
  /** FAM: the partner entry's type (PARTNER_TYPES), or NONE for a family that only holds children. */
  partnerType: "_HEIRLOOM_PARTNER_TYPE",
  /** INDI.FAMC (or INDI when there is no family): the node's parentType, ABDUCTION or CLONE. */
  parentType: "_HEIRLOOM_PARENT_TYPE",
  trait: "_HEIRLOOM_TRAIT",
  aspiration: "_HEIRLOOM_ASPIRATION",
  lifeState: "_HEIRLOOM_LIFE_STATE",
} as const;

/** The HEAD.SCHMA TAG lines' payloads, in a fixed order. */
export const HEIRLOOM_SCHEMA: [tag: string, uri: string][] = [
  [HEIRLOOM_TAGS.title, `${HEIRLOOM_SCHEMA_BASE}title`],
  [HEIRLOOM_TAGS.partnerType, `${HEIRLOOM_SCHEMA_BASE}partner-type`],
  [HEIRLOOM_TAGS.parentType, `${HEIRLOOM_SCHEMA_BASE}parent-type`],
  [HEIRLOOM_TAGS.trait, `${HEIRLOOM_SCHEMA_BASE}trait`],
  [HEIRLOOM_TAGS.aspiration, `${HEIRLOOM_SCHEMA_BASE}aspiration`],
  [HEIRLOOM_TAGS.lifeState, `${HEIRLOOM_SCHEMA_BASE}life-state`],
];
