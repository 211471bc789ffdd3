// The client's address behind reverse proxies (issue 32, finding 3): which X-Forwarded-For hop to
// believe, the way Express's `trust proxy` does with a number or a list (proxy-addr).
//
// The proxies in front of the server each append the address they received the request from, so
// the header reads "<whatever the client sent>, <hop>, …, <hop>" and only its right end was
// written by machines we trust. The chain is walked from the socket leftwards: each address that
// is a trusted proxy (by position for a number, by address for a list) passes the word on to the
// hop on its left; the first address that is not one is the client. `true` trusts every hop, so
// the left-most one (which the client wrote itself, behind a proxy that appends) is taken.
//
// Shared (lib/, no "server-only"): read by lib/env.ts, the server in front of Next
// (lib/server/front/server.ts, outside Next's bundle) and the route handlers (http.ts clientIp).
import { BlockList, isIP } from "node:net";

/** How far the X-Forwarded-For header is believed (TRUST_PROXY, parsed once by lib/env.ts). */
export type TrustProxy =
  /** Unset, `false` or `0`: the socket's address, whatever the header says. */
  | false
  /** `true`: every hop, so the left-most (the client can write it; unsafe behind an appending proxy). */
  | { kind: "all" }
  /** A number: that many proxies in front, the one at the socket included. */
  | { kind: "count"; proxies: number }
  /** Addresses and CIDRs (and Express's names loopback, linklocal, uniquelocal) of the proxies. */
  | { kind: "list"; proxies: BlockList; entries: string[] };

/** Express's (proxy-addr's) names for address ranges. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ["127.0.0.1/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

const MAPPED_IPV4 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * One address in a canonical form, or null when `text` is not an IP address: IPv6 lower-cased and
 * shortened (without brackets or a zone), and IPv4-mapped IPv6 (`::ffff:192.0.2.1`, what a
 * dual-stack socket reports for an IPv4 client) as plain IPv4, so one client has one key.
 */
export function normalizeAddress(text: string): string | null {
  let address = text.trim();
  if (address.startsWith("[") && address.endsWith("]")) address = address.slice(1, -1);
  const family = isIP(address);
  if (family === 4) return address;
  if (family !== 6) return null;
  const zone = address.indexOf("%");
  if (zone !== -1) address = address.slice(0, zone);
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const mapped = MAPPED_IPV4.exec(canonical);
  if (!mapped) return canonical;
  const high = parseInt(mapped[1]!, 16);
  const low = parseInt(mapped[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

function addToList(list: BlockList, entry: string): void {
  const [text = "", prefixText, ...rest] = entry.split("/");
  const address = normalizeAddress(text);
  if (address === null || rest.length > 0) throw new Error(`"${entry}" is not an address or CIDR`);
  const family = isIP(address) === 4 ? "ipv4" : "ipv6";
  if (prefixText === undefined) {
    list.addAddress(address, family);
    return;
  }
  const max = family === "ipv4" ? 32 : 128;
  // An IPv4-mapped IPv6 range (::ffff:10.0.0.0/104) was normalised to IPv4: its prefix too.
  const mappedShift = family === "ipv4" && isIP(text.trim()) === 6 ? 96 : 0;
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) - mappedShift : NaN;
  if (!(prefix >= 0 && prefix <= max)) throw new Error(`"${entry}" has no valid prefix length`);
  list.addSubnet(address, prefix, family);
}

/**
 * TRUST_PROXY's meaning, or an Error naming what is wrong:
 * - unset, `false`, `0`: no proxy, the socket's address;
 * - `true`: every hop (the left-most address);
 * - a whole number N: N proxies in front (`1` for one nginx);
 * - a comma-separated list of the proxies' addresses and CIDRs, IPv4 or IPv6, and the names
 *   `loopback`, `linklocal` and `uniquelocal`.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const text = (raw ?? "").trim();
  if (text === "" || text === "false" || text === "0") return false;
  if (text === "true") return { kind: "all" };
  if (/^\d+$/.test(text)) {
    const proxies = Number(text);
    if (!Number.isSafeInteger(proxies)) throw new Error(`${text} proxies is not a usable number`);
    return { kind: "count", proxies };
  }
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new Error("expected true, false, a number or addresses");
  const proxies = new BlockList();
  for (const entry of entries) {
    const named = NAMED_RANGES[entry.toLowerCase()];
    for (const range of named ?? [entry]) addToList(proxies, range);
  }
  return { kind: "list", proxies, entries };
}

/** The X-Forwarded-For hops, left to right (several header lines read as one list). */
function hopsOf(forwardedFor: string | readonly string[] | null | undefined): string[] {
  if (forwardedFor === null || forwardedFor === undefined) return [];
  const text = typeof forwardedFor === "string" ? forwardedFor : forwardedFor.join(",");
  return text
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
}

function isTrusted(address: string | null, position: number, trust: Exclude<TrustProxy, false>) {
  switch (trust.kind) {
    case "all":
      return true;
    case "count":
      return position < trust.proxies;
    case "list":
      return (
        address !== null && trust.proxies.check(address, isIP(address) === 4 ? "ipv4" : "ipv6")
      );
  }
}

/**
 * The client's address for a request that came in on a socket from `peer`, carrying
 * `forwardedFor` (its X-Forwarded-For), under `trust`. The chain is the peer, then the hops from
 * right to left; the first untrusted one is the client, or the left-most when all are trusted.
 * A hop that is not an IP address is never a trusted proxy in a list, and is reported as
 * "unknown" when it would be the client (one shared key rather than whatever a client wrote).
 */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | readonly string[] | null | undefined,
  trust: TrustProxy,
): string {
  if (trust === false) return normalizeAddress(peer ?? "") ?? "unknown";
  const chain = [peer ?? "", ...hopsOf(forwardedFor).reverse()];
  let position = 0;
  while (
    position < chain.length - 1 &&
    isTrusted(normalizeAddress(chain[position]!), position, trust)
  ) {
    position += 1;
  }
  return normalizeAddress(chain[position]!) ?? "unknown";
}

/**
 * The address the server right in front of Next wrote: the right-most X-Forwarded-For hop.
 * Behind the production server (lib/server/front/server.ts) that is the only hop, the client
 * resolved there under TRUST_PROXY; `next dev` writes the socket's address when the header is
 * missing. Route handlers read the client this way (lib/server/http/http.ts `clientIp`).
 */
export function forwardedClient(
  forwardedFor: string | readonly string[] | null | undefined,
): string | null {
  const hops = hopsOf(forwardedFor);
  const last = hops[hops.length - 1];
  return last === undefined ? null : (normalizeAddress(last) ?? "unknown");
}
