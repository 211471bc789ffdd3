// Which buffers may move between threads instead of being copied. Used by the worker threads and
// the request thread both.
import "server-only";

/**
 * The buffers of `value` (a Uint8Array, or an object whose fields or Map values are) that are an
 * ArrayBuffer of their own, not a slice of a larger one such as Node's shared pool, each once.
 */
export function transferables(value: unknown): ArrayBuffer[] {
  const found = new Set<ArrayBuffer>();
  const add = (item: unknown) => {
    if (
      item instanceof Uint8Array &&
      item.buffer instanceof ArrayBuffer &&
      item.byteOffset === 0 &&
      item.byteLength === item.buffer.byteLength &&
      item.byteLength > 0
    ) {
      found.add(item.buffer);
    }
  };
  add(value);
  if (value && typeof value === "object" && !(value instanceof Uint8Array)) {
    for (const item of Object.values(value)) {
      add(item);
      if (item instanceof Map) for (const inner of item.values()) add(inner);
    }
  }
  return [...found];
}
