import "server-only";
// The default export: under plain Node the CommonJS build has no named exports.
import jsonPatch, { type Operation } from "fast-json-patch";
import type { JsonPatchOperation } from "@/lib/schemas/tree";
import { ApiError } from "@/lib/server/http/errors";

const REASONS: Record<string, string> = {
  TEST_OPERATION_FAILED: "its test failed: the tree does not hold that value there",
  OPERATION_PATH_UNRESOLVABLE: "its path is not in the tree",
  OPERATION_FROM_UNRESOLVABLE: "its from path is not in the tree",
  OPERATION_PATH_CANNOT_ADD: "nothing can be added at its path",
  OPERATION_PATH_ILLEGAL_ARRAY_INDEX: "a list index in its path is not a number",
  OPERATION_VALUE_OUT_OF_BOUNDS: "a list index in its path is past the end of the list",
  OPERATION_PATH_INVALID: "its path is not a JSON Pointer",
};

/**
 * Applies validated RFC 6902 operations to `{data}` (the tree's stored structure, freshly parsed,
 * so it is changed in place) and answers the new structure, still unvalidated. An operation that
 * cannot apply is refused with 422 naming it; fast-json-patch also refuses prototype keys.
 */
export function applyTreePatch(data: unknown, operations: JsonPatchOperation[]): unknown {
  const document = { data };
  try {
    // validateOperation: check each one against the document; mutateDocument: no deep copy of a
    // 10,000-node tree; banPrototypeModifications: never write through __proto__.
    // jsonPatchOperation checked each op's fields as the RFC asks; fast-json-patch checks again.
    jsonPatch.applyPatch(document, operations as Operation[], true, true, true);
  } catch (error) {
    if (error instanceof jsonPatch.JsonPatchError) {
      const operation = operations[error.index ?? -1];
      const which = operation ? ` (${operation.op} ${operation.path})` : "";
      const reason = REASONS[error.name] ?? error.message;
      throw new ApiError(422, `Operation ${error.index ?? 0}${which} cannot be applied: ${reason}`);
    }
    if (error instanceof RangeError) {
      throw new ApiError(400, "The patch's values are nested too deeply");
    }
    throw error;
  }
  return document.data;
}
