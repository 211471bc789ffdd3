// No "server-only" here: the front (lib/server/front/), which runs outside Next's bundle, reads
// request ids through this module too.
import { randomUUID } from "node:crypto";

/** The longest client-sent X-Request-Id kept; a longer one is replaced (issue 22.7). */
export const MAX_REQUEST_ID_LENGTH = 128;

// Letters, digits and the punctuation of common id formats (UUIDs, ULIDs, AWS "Root=1-…;…" aside):
// nothing a log reader or a header could mistake for structure (no spaces, quotes, control
// characters, commas or semicolons).
const SAFE_REQUEST_ID = new RegExp(`^[A-Za-z0-9._:@/+=-]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/**
 * The id a request is logged and answered under: the client's X-Request-Id when it is short and
 * made of safe characters, else a fresh UUID (a client's 8 KB header is neither echoed nor logged).
 */
export function requestIdFrom(given: string | string[] | null | undefined): string {
  return typeof given === "string" && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}
