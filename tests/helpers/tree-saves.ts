// The two forms of a structure save (PATCH /api/trees/{id}), as the editor and the original client
// send them: a JSON Patch against the version in If-Match, or the whole {data}. Shared by the JSON
// Patch tests and the structure-limit suite of both engines.
import { JSON_PATCH_TYPE } from "@/lib/schemas/tree";
import { api } from "./api";

export const treePath = (id: string) => `/api/trees/${id}`;

type Saved = { _id: string; version: number };

/** Structure saves as the player whose token `token()` gives (read at each call). */
export function structureSaves(token: () => string) {
  const ifMatchHeader = (ifMatch?: string): Record<string, string> =>
    ifMatch === undefined ? {} : { "if-match": ifMatch };
  return {
    sendPatch: (treeId: string, operations: unknown, ifMatch?: string) =>
      api.patch<Saved>(treePath(treeId), operations, {
        token: token(),
        headers: { "content-type": JSON_PATCH_TYPE, ...ifMatchHeader(ifMatch) },
      }),
    sendWhole: (treeId: string, data: unknown, ifMatch?: string) =>
      api.patch<Saved>(
        treePath(treeId),
        { data },
        { token: token(), headers: ifMatchHeader(ifMatch) },
      ),
  };
}
