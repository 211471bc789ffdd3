import "server-only";

/**
 * The reference tokens of an RFC 6901 JSON Pointer, or null when it is not one: it must be empty
 * or start with `/`, and `~` may appear only as `~0` (for `~`) or `~1` (for `/`).
 */
export function pointerTokens(pointer: string): string[] | null {
  if (pointer === "") return [];
  if (!pointer.startsWith("/") || /~(?![01])/.test(pointer)) return null;
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * A token as an array index (RFC 6901 section 4): `0`, or digits without a leading zero; `-`
 * (the element after the last) only where the caller allows it. Null for anything else.
 */
export function arrayIndex(token: string, allowEnd: boolean): number | "-" | null {
  if (token === "-") return allowEnd ? "-" : null;
  if (!/^(0|[1-9][0-9]{0,8})$/.test(token)) return null;
  return Number(token);
}

/** True when `prefix` is a proper prefix of `tokens` (RFC 6902 4.4: a move into its own child). */
export function isProperPrefix(prefix: readonly string[], tokens: readonly string[]): boolean {
  if (prefix.length >= tokens.length) return false;
  return prefix.every((token, i) => tokens[i] === token);
}
