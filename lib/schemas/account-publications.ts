import type { PublishStatus } from "./published";

/**
 * One of the signed-in user's public copies, as GET /api/account/publications lists them: for the
 * tree list's and the editor's "published / in the Gallery" marks, and for the account page's
 * "Public copies of deleted trees" (issue 25). Not in SPEC.md: Heirloom's own route.
 */
export interface AccountPublication extends PublishStatus {
  /** The tree's id, which is also the public copy's (`/public/{_id}`). */
  _id: string;
  /** The title in the public copy (the tree's title when it was last published). */
  title: string;
  /** Shown in the Gallery now: the owner listed it and no operator hid it. */
  inGallery: boolean;
  /** Listed by the owner but hidden from the Gallery by an operator. */
  hiddenFromGallery: boolean;
  /** The tree itself was deleted; only its public copy is left. */
  treeDeleted: boolean;
}

/** GET /api/account/publications: newest publication first. */
export interface AccountPublications {
  data: AccountPublication[];
}
