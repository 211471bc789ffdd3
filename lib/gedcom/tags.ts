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
  /** INDI: the heir of their generation (issue 26), with the generation number as payload. */
  heir: "_HEIRLOOM_HEIR",
} as const;

/** The heir tag's SCHMA line; declared only by files that use it, so other exports stay as they were. */
export const HEIRLOOM_HEIR_SCHEMA: [tag: string, uri: string] = [
  HEIRLOOM_TAGS.heir,
  `${HEIRLOOM_SCHEMA_BASE}heir`,
];

/** The HEAD.SCHMA TAG lines' payloads, in a fixed order. */
export const HEIRLOOM_SCHEMA: [tag: string, uri: string][] = [
  [HEIRLOOM_TAGS.title, `${HEIRLOOM_SCHEMA_BASE}title`],
  [HEIRLOOM_TAGS.partnerType, `${HEIRLOOM_SCHEMA_BASE}partner-type`],
  [HEIRLOOM_TAGS.parentType, `${HEIRLOOM_SCHEMA_BASE}parent-type`],
  [HEIRLOOM_TAGS.trait, `${HEIRLOOM_SCHEMA_BASE}trait`],
  [HEIRLOOM_TAGS.aspiration, `${HEIRLOOM_SCHEMA_BASE}aspiration`],
  [HEIRLOOM_TAGS.lifeState, `${HEIRLOOM_SCHEMA_BASE}life-state`],
];

/**
 * The standard tags of GEDCOM 5.5.1 and 7.0. Any other tag (a program's own `_TAG`, a typo) is
 * read past with an "unknown tag" warning; standard tags Heirloom does not map (SOUR, OBJE…)
 * are simply not imported (ADR 007's mapping table).
 */
export const STANDARD_TAGS = new Set(
  (
    "ABBR ADDR ADOP ADR1 ADR2 ADR3 AFN AGE AGNC ALIA ANCE ANCI ANUL ASSO AUTH BAPL BAPM BARM " +
    "BASM BIRT BLES BLOB BURI CALN CAST CAUS CENS CHAN CHAR CHIL CHR CHRA CITY CONC CONF CONL " +
    "CONT COPR CORP CREM CREA CROP CTRY DATA DATE DEAT DESC DESI DEST DIV DIVF DSCR EDUC EMAIL " +
    "EMIG ENDL ENGA EVEN EXID FACT FAM FAMC FAMS FAX FCOM FILE FONE FORM GEDC GIVN GRAD HEAD " +
    "HEIGHT HUSB IDNO IMMI INDI INIL LANG LATI LEFT LABL LONG MAP MARB MARC MARL MARR MARS MEDI " +
    "MIME NAME NATI NATU NCHI NICK NMR NO NOTE NPFX NSFX OBJE OCCU ORDI ORDN PAGE PEDI PHON " +
    "PHRASE PLAC POST PROB PROP PUBL QUAY REFN RELA RELI REPO RESI RESN RETI RFN RIN ROLE ROMN " +
    "SCHMA SDATE SEX SLGC SLGS SNOTE SOUR SPFX SSN STAE STAT SUBM SUBN SURN TAG TEMP TEXT TIME " +
    "TITL TOP TRAN TRLR TYPE UID VERS WIDTH WIFE WILL WWW _FREL _MREL"
  ).split(" "),
);
