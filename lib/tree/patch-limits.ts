// The patch limits and content type, now kept with every other structure limit in ./limits.ts;
// this path stays for the editor's imports.
export { JSON_PATCH_TYPE, TREE_PATCH_LIMITS } from "./limits";
