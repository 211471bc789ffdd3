/** The guides in reading order. Slugs are part of public URLs ("publising" is spelled as shipped). */
export const GUIDES = [
  {
    slug: "create-a-tree",
    title: "Create a Tree",
    summary: "Start a new family tree: its title, description and cover image.",
  },
  {
    slug: "tree-editor",
    title: "The Tree Editor",
    summary: "Find your way around the editor: menus, zooming, saving, previewing and deleting.",
  },
  {
    slug: "create-and-edit-sims",
    title: "Create and Edit Sims",
    summary: "Add the Sims of your legacy with portraits, biographies, traits and custom details.",
  },
  {
    slug: "placing-sims",
    title: "Placing Sims",
    summary: "Put Sims into the tree: main Sims, partners, parents and children.",
  },
  {
    slug: "publising-trees",
    title: "Publishing Trees",
    summary: "Share a read-only copy of your tree with anyone, and keep it up to date.",
  },
  {
    slug: "linking-sims-to-other-trees",
    title: "Linking Sims to Other Trees",
    summary: "Connect a Sim to the same Sim in another public tree, so visitors can follow them.",
  },
  {
    slug: "finding-sims",
    title: "Finding Sims, Heirs and Relationships",
    summary: "Find a Sim by name, see generations, mark heirs and ask how two Sims are related.",
  },
  {
    slug: "import-from-the-sims-4",
    title: "Import from The Sims 4",
    summary:
      "Bring a household's family in straight from a save or a Gallery household, and sync it as you play.",
  },
] as const;

export type Guide = (typeof GUIDES)[number];
export type GuideSlug = Guide["slug"];

export function findGuide(slug: string): { guide: Guide; index: number } | null {
  const index = GUIDES.findIndex((guide) => guide.slug === slug);
  const guide = GUIDES[index];
  return guide ? { guide, index } : null;
}
