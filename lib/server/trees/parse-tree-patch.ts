import "server-only";
import { z } from "zod";
import { type TreeNode, treeData, updateTreeDetailsBody } from "@/lib/schemas/tree";
import { ApiError } from "@/lib/server/http/errors";
import type { TreeDetails } from "./update-tree-details";

export type TreePatch =
  { kind: "data"; data: TreeNode } | { kind: "details"; details: TreeDetails };

const anyObject = z.record(z.string(), z.unknown(), {
  error: "The body must be an object: {data} or {title, description, cover}",
});
const detailsBody = updateTreeDetailsBody.partial({ title: true });

/**
 * Picks the PATCH branch by the keys sent: a body with `data` is a structure save, anything else
 * a details update. (`updateTreeBody`, a zod union, would take an invalid `{data}` for an empty
 * details update and answer 200 without saving; choosing by key gives the real error.)
 */
export function parseTreePatch(body: unknown): TreePatch {
  const fields = anyObject.parse(body);
  if (!("data" in fields)) return { kind: "details", details: detailsBody.parse(fields) };
  const others = Object.keys(fields).filter((key) => key !== "data");
  if (others.length > 0) {
    throw new ApiError(
      400,
      "Send either {data} or {title, description, cover}, not both in one request",
    );
  }
  return { kind: "data", data: treeData.parse(fields.data) };
}
