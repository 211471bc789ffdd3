// What a public page's render needs of a publication, worked out from the publication's JSON text
// (GET /api/published/{id}'s keys): the canvas page's opening view and first generations, or one
// page of the list. For a large publication this runs in a worker thread (the pool's publicPage
// task, lib/server/published/load-public-tree.ts): parsing 49 MB of JSON, laying out 100,000 Sims
// and paging them held every other request for 2.5 s on the request thread (issue 22, finding 3).
// The answer is small at any tree size: a few families, 40 drawn nodes, or one list page.
import type { Person } from "@/lib/schemas/person";
import type { PublishedTreeView } from "@/lib/schemas/published";
import { firstGenerationsCut, type FirstGenerationsCut } from "./first-generations";
import { listPage, type ListPage } from "./list-pages";
import { openingView, type OpeningView } from "./opening-view";

/** The page asked for: the canvas page, or page `page` (from 1) of the list. */
export type PublicPageWanted = { kind: "canvas" } | { kind: "list"; page: number };

export type PublicPageModel =
  | { kind: "canvas"; preview: OpeningView | null; first: FirstGenerationsCut }
  | { kind: "list"; list: ListPage };

export function publicPageModel(
  view: Pick<PublishedTreeView, "_id" | "data" | "people" | "lastPublishDate">,
  wanted: PublicPageWanted,
): PublicPageModel {
  if (wanted.kind === "list") {
    return { kind: "list", list: listPage(view.data, view.people, wanted.page) };
  }
  const people = new Map<string, Person>(view.people.map((person) => [person._id, person]));
  return {
    kind: "canvas",
    preview: openingView(`${view._id}:${view.lastPublishDate}`, view.data, people),
    first: firstGenerationsCut(view.data, people),
  };
}

/** publicPageModel of a publication's JSON text (the worker task's input). */
export function publicPageModelOfJson(json: string, wanted: PublicPageWanted): PublicPageModel {
  return publicPageModel(JSON.parse(json) as PublishedTreeView, wanted);
}
