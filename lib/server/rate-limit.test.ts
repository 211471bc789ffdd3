import { describe, expect, it } from "vitest";
import {
  FORGOT_PASSWORD_PER_IP,
  FORGOT_PASSWORD_PER_USERNAME,
  FORGOT_USERNAME_PER_EMAIL,
  FORGOT_USERNAME_PER_IP,
  PASSWORD_CHECK_PER_SESSION,
  SIGNIN_KNOWN_ADDRESS,
  SIGNIN_PER_IP,
  SIGNIN_PER_USERNAME,
  SIGNIN_PER_USERNAME_AND_IP,
  describeWait,
} from "./rate-limit";

describe("describeWait", () => {
  it.each([
    [0.2, "1 second"],
    [1, "1 second"],
    [45, "45 seconds"],
    [60, "1 minute"],
    [61, "2 minutes"],
    [899, "15 minutes"],
    [900, "15 minutes"],
    [3600, "60 minutes"],
    [3601, "2 hours"],
    [7200, "2 hours"],
  ])("%s s reads as %s", (seconds, text) => {
    expect(describeWait(seconds)).toBe(text);
  });
});

describe("the rules", () => {
  const rules = [
    SIGNIN_PER_USERNAME,
    SIGNIN_PER_USERNAME_AND_IP,
    SIGNIN_KNOWN_ADDRESS,
    SIGNIN_PER_IP,
    PASSWORD_CHECK_PER_SESSION,
    FORGOT_PASSWORD_PER_USERNAME,
    FORGOT_PASSWORD_PER_IP,
    FORGOT_USERNAME_PER_EMAIL,
    FORGOT_USERNAME_PER_IP,
  ];

  it("have distinct names, so their counters never mix", () => {
    expect(new Set(rules.map((r) => r.name)).size).toBe(rules.length);
  });

  it("allow an address more attempts than one account, so a shared network is not locked out first", () => {
    expect(SIGNIN_PER_IP.limit).toBeGreaterThan(SIGNIN_PER_USERNAME_AND_IP.limit);
    expect(FORGOT_PASSWORD_PER_IP.limit).toBeGreaterThan(FORGOT_PASSWORD_PER_USERNAME.limit);
    expect(FORGOT_USERNAME_PER_IP.limit).toBeGreaterThan(FORGOT_USERNAME_PER_EMAIL.limit);
  });

  it("give one account a much higher ceiling from all addresses than from one (ADR 012)", () => {
    expect(SIGNIN_PER_USERNAME.limit).toBeGreaterThanOrEqual(10 * SIGNIN_PER_USERNAME_AND_IP.limit);
  });
});
