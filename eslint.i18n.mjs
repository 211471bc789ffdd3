/**
 * Literal UI strings are flagged in the code that is translated (ADR 041): text between JSX tags
 * (react/jsx-no-literals), and the attributes a reader hears or sees (aria-label, title, alt,
 * placeholder, label). The list widens as issue 36's sweep translates the rest of the app; until a
 * file is in it, its English literals are not flagged.
 */
export const TRANSLATED_FILES = [
  "app/layout.tsx",
  "app/(app)/page.tsx",
  "components/shell/**/*.tsx",
  "components/home/**/*.tsx",
  "components/language-menu/**/*.tsx",
  "components/account/**/*.tsx",
  "app/(app)/(auth)/**/*.tsx",
  "app/(app)/account/**/*.tsx",
  "components/gallery/**/*.tsx",
  "app/(app)/gallery/**/*.tsx",
  "components/publish/**/*.tsx",
  "app/(app)/trees/[[]treeId]/publish/**/*.tsx",
  "components/tree-details/**/*.tsx",
  "app/(app)/trees/[[]treeId]/details/**/*.tsx",
  "app/(app)/trees/create/**/*.tsx",
  "components/people/**/*.tsx",
  "app/(app)/trees/[[]treeId]/people/page.tsx",
  "components/ui/loading.tsx",
  "components/ui/confirm-dialog.tsx",
  "components/ui/not-found-message.tsx",
  "components/ui/form.tsx",
  "app/not-found.tsx",
  "app/(app)/not-found.tsx",
  "components/find-sim/**/*.tsx",
  "components/person-editor/**/*.tsx",
  "app/(app)/trees/[[]treeId]/people/add/**/*.tsx",
  "app/(app)/trees/[[]treeId]/people/[[]personId]/page.tsx",
  "components/person-linker/**/*.tsx",
  "app/(app)/trees/[[]treeId]/people/[[]personId]/link/**/*.tsx",
  "components/tree-export/**/*.tsx",
];

/** A letter anywhere: `alt=""` and punctuation-only values stay allowed. */
const WORDS = "/\\p{L}/u";
const TEXT_ATTRIBUTES = "/^(aria-label|aria-description|title|alt|placeholder|label)$/";

export const NO_LITERAL_STRINGS = {
  files: TRANSLATED_FILES,
  rules: {
    // The name of the product is the same in every language; "+" marks "Create New"; "·" only
    // separates two links or facts.
    "react/jsx-no-literals": [
      "error",
      { noStrings: false, ignoreProps: true, allowedStrings: ["Heirloom", "+", "·"] },
    ],
    "no-restricted-syntax": [
      "error",
      {
        selector: `JSXAttribute[name.name=${TEXT_ATTRIBUTES}] > Literal[value=${WORDS}]`,
        message: "Translate this text: take it from the catalogs with useTranslations (ADR 041).",
      },
      {
        selector: `JSXAttribute[name.name=${TEXT_ATTRIBUTES}] > JSXExpressionContainer > Literal[value=${WORDS}]`,
        message: "Translate this text: take it from the catalogs with useTranslations (ADR 041).",
      },
      {
        selector: `:matches(JSXElement, JSXFragment) > JSXExpressionContainer > Literal[value=${WORDS}]`,
        message: "Translate this text: take it from the catalogs with useTranslations (ADR 041).",
      },
    ],
  },
};
