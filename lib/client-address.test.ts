// Issue 32, finding 3: which X-Forwarded-For hop is the client. Before, TRUST_PROXY=true or 1 took
// the left-most hop, which the client writes itself behind a proxy that appends
// ($proxy_add_x_forwarded_for), and `1` could not mean "one proxy".
import { afterEach, describe, expect, it, vi } from "vitest";
import { getEnv, resetEnvForTests } from "@/lib/env";
import {
  forwardedClient,
  normalizeAddress,
  parseTrustProxy,
  resolveClientAddress,
} from "./client-address";

const NGINX = "10.0.0.2";
const CLIENT = "192.0.2.7";

describe("resolveClientAddress", () => {
  it.each([
    // [TRUST_PROXY, socket address, X-Forwarded-For, client]
    ["unset: the socket, whatever the header says", "", NGINX, "203.0.113.5", NGINX],
    ["false", "false", NGINX, `203.0.113.5, ${CLIENT}`, NGINX],
    ["0", "0", "::ffff:198.51.100.9", "203.0.113.5", "198.51.100.9"],
    [
      "1: the hop nginx appended, not the one the client sent",
      "1",
      NGINX,
      `203.0.113.5, ${CLIENT}`,
      CLIENT,
    ],
    ["1 with several spoofed hops", "1", NGINX, `1.1.1.1, 2.2.2.2, 3.3.3.3, ${CLIENT}`, CLIENT],
    ["1 without a header: the socket", "1", NGINX, undefined, NGINX],
    ["2: a CDN and nginx", "2", NGINX, `203.0.113.5, ${CLIENT}, 198.51.100.20`, CLIENT],
    ["2 with fewer hops than proxies: the left-most", "2", NGINX, CLIENT, CLIENT],
    ["3 with one hop: the left-most", "3", NGINX, CLIENT, CLIENT],
    [
      "a list: the right-most address not in it",
      "10.0.0.0/8",
      NGINX,
      `203.0.113.5, ${CLIENT}, 10.1.1.1`,
      CLIENT,
    ],
    [
      "a list with a spoofed proxy address on the left",
      "10.0.0.0/8",
      NGINX,
      `10.9.9.9, ${CLIENT}`,
      CLIENT,
    ],
    [
      "a list, every hop a proxy: the left-most",
      "10.0.0.0/8",
      NGINX,
      "10.1.1.1, 10.2.2.2",
      "10.1.1.1",
    ],
    [
      "a list, reached around the proxy: the socket",
      "10.0.0.0/8",
      "198.51.100.9",
      `203.0.113.5`,
      "198.51.100.9",
    ],
    [
      "a list of single addresses",
      "10.0.0.2, 10.0.0.3",
      NGINX,
      `203.0.113.5, ${CLIENT}, 10.0.0.3`,
      CLIENT,
    ],
    ["loopback (Express's name)", "loopback", "::1", `203.0.113.5, ${CLIENT}, 127.0.0.1`, CLIENT],
    ["uniquelocal (Express's name)", "uniquelocal", "172.20.0.4", `203.0.113.5, ${CLIENT}`, CLIENT],
    [
      "IPv6 proxies and client",
      "2001:db8::/32",
      "2001:db8::10",
      "2001:db8:ffff::1, 2A00:1450:0:0::5",
      "2a00:1450::5",
    ],
    [
      "an IPv6 client behind an IPv4 proxy",
      "1",
      NGINX,
      "203.0.113.5, 2001:DB8::0:1",
      "2001:db8::1",
    ],
    [
      "an IPv4-mapped socket address against an IPv4 range",
      "10.0.0.0/8",
      "::ffff:10.0.0.2",
      `203.0.113.5, ${CLIENT}`,
      CLIENT,
    ],
    ["an IPv4-mapped range against an IPv4 socket", "::ffff:10.0.0.0/104", NGINX, CLIENT, CLIENT],
    ["an IPv4-mapped client hop is plain IPv4", "1", NGINX, "::ffff:192.0.2.7", CLIENT],
    ["a garbage hop left of the client is never read", "1", NGINX, `<script>, ${CLIENT}`, CLIENT],
    [
      "a garbage hop is no proxy of a list: it stops the walk",
      "10.0.0.0/8",
      NGINX,
      `${CLIENT}, not-an-ip`,
      "unknown",
    ],
    ["a garbage hop where the client should be", "1", NGINX, "not-an-ip", "unknown"],
    ["a hop with a port is not an address", "1", NGINX, "192.0.2.7:5555", "unknown"],
    [
      "a garbage hop in a trusted position (a number counts positions)",
      "2",
      NGINX,
      `${CLIENT}, junk`,
      CLIENT,
    ],
    ["empty hops and spaces are skipped", "1", NGINX, ` 203.0.113.5 ,, ${CLIENT} , `, CLIENT],
    [
      "true: the left-most, which the client wrote (unsafe)",
      "true",
      NGINX,
      `203.0.113.5, ${CLIENT}`,
      "203.0.113.5",
    ],
  ])("%s", (_name, trust, peer, forwardedFor, client) => {
    expect(resolveClientAddress(peer, forwardedFor, parseTrustProxy(trust))).toBe(client);
  });

  it("reads several X-Forwarded-For lines as one list", () => {
    const lines = ["203.0.113.5", `${CLIENT}, 10.1.1.1`];
    expect(resolveClientAddress(NGINX, lines, parseTrustProxy("2"))).toBe(CLIENT);
  });

  it("answers unknown when the socket has no address and nothing is trusted", () => {
    expect(resolveClientAddress(undefined, CLIENT, false)).toBe("unknown");
  });

  it("gives eight sign-ups with spoofed left hops one client behind one nginx", () => {
    const clients = new Set(
      Array.from({ length: 8 }, (_, n) =>
        resolveClientAddress("127.0.0.1", `203.0.113.${n + 1}, ${CLIENT}`, parseTrustProxy("1")),
      ),
    );
    expect([...clients]).toEqual([CLIENT]);
  });
});

describe("parseTrustProxy", () => {
  it.each([undefined, "", " ", "false", "0"])("reads %j as no proxy", (raw) => {
    expect(parseTrustProxy(raw)).toBe(false);
  });

  it("reads true as every hop, and a number as that many proxies (1 is one proxy, not true)", () => {
    expect(parseTrustProxy("true")).toEqual({ kind: "all" });
    expect(parseTrustProxy("1")).toEqual({ kind: "count", proxies: 1 });
    expect(parseTrustProxy("2")).toEqual({ kind: "count", proxies: 2 });
  });

  it("reads a list of addresses, CIDRs and names", () => {
    const trust = parseTrustProxy("10.0.0.0/8, 2001:db8::1, loopback");
    expect(trust).toMatchObject({
      kind: "list",
      entries: ["10.0.0.0/8", "2001:db8::1", "loopback"],
    });
  });

  it.each([
    ["yes", '"yes" is not an address or CIDR'],
    ["1.5", '"1.5" is not an address or CIDR'],
    ["-1", '"-1" is not an address or CIDR'],
    ["10.0.0.0/33", '"10.0.0.0/33" has no valid prefix length'],
    ["::1/129", '"::1/129" has no valid prefix length'],
    ["10.0.0.0/x", '"10.0.0.0/x" has no valid prefix length'],
    ["10.0.0.0/8/8", '"10.0.0.0/8/8" is not an address or CIDR'],
    ["10.0.0.1, nginx", '"nginx" is not an address or CIDR'],
    [",", "expected true, false, a number or addresses"],
  ])("refuses %j", (raw, message) => {
    expect(() => parseTrustProxy(raw)).toThrow(message);
  });
});

describe("TRUST_PROXY in the environment", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("is parsed once into its meaning", () => {
    vi.stubEnv("TRUST_PROXY", "1");
    resetEnvForTests();
    expect(getEnv().TRUST_PROXY).toEqual({ kind: "count", proxies: 1 });
  });

  it("refuses to start with a value it cannot read", () => {
    vi.stubEnv("TRUST_PROXY", "10.0.0.0/40");
    resetEnvForTests();
    expect(() => getEnv()).toThrow(
      'Invalid environment: TRUST_PROXY: "10.0.0.0/40" has no valid prefix length',
    );
  });
});

describe("normalizeAddress and forwardedClient", () => {
  it.each([
    ["192.0.2.7", "192.0.2.7"],
    [" 2001:DB8:0:0::1 ", "2001:db8::1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["::ffff:127.0.0.1", "127.0.0.1"],
    ["::FFFF:7f00:1", "127.0.0.1"],
    ["fe80::1%eth0", "fe80::1"],
    ["01.2.3.4", null],
    ["256.1.1.1", null],
    ["unknown", null],
  ])("%j is %j", (text, address) => {
    expect(normalizeAddress(text)).toBe(address);
  });

  it("takes the right-most hop, the word of the server in front of Next", () => {
    expect(forwardedClient(`203.0.113.5, ${CLIENT}`)).toBe(CLIENT);
    expect(forwardedClient("::ffff:192.0.2.7")).toBe(CLIENT);
    expect(forwardedClient("garbage")).toBe("unknown");
    expect(forwardedClient(null)).toBeNull();
    expect(forwardedClient(" , ")).toBeNull();
  });
});
