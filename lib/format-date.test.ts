import { describe, expect, it } from "vitest";
import { formatLongDate } from "./format-date";

describe("formatLongDate", () => {
  it.each([
    ["2025-03-03T12:00:00Z", "March 3rd, 2025"],
    ["2025-01-01T12:00:00Z", "January 1st, 2025"],
    ["2024-02-02T12:00:00Z", "February 2nd, 2024"],
    ["2023-04-04T12:00:00Z", "April 4th, 2023"],
    ["2025-05-11T12:00:00Z", "May 11th, 2025"],
    ["2025-06-12T12:00:00Z", "June 12th, 2025"],
    ["2025-07-13T12:00:00Z", "July 13th, 2025"],
    ["2025-08-21T12:00:00Z", "August 21st, 2025"],
    ["2025-09-22T12:00:00Z", "September 22nd, 2025"],
    ["2025-10-23T12:00:00Z", "October 23rd, 2025"],
    ["2025-11-30T12:00:00Z", "November 30th, 2025"],
    ["2025-12-31T12:00:00Z", "December 31st, 2025"],
  ])("formats %s as %s", (iso, expected) => {
    expect(formatLongDate(iso, "UTC")).toBe(expected);
  });

  it("accepts Date objects and timestamps", () => {
    const date = new Date(Date.UTC(2025, 2, 3, 8));
    expect(formatLongDate(date, "UTC")).toBe("March 3rd, 2025");
    expect(formatLongDate(date.getTime(), "UTC")).toBe("March 3rd, 2025");
  });

  it("uses the given time zone to pick the day", () => {
    const lateEvening = "2025-03-03T23:30:00Z";
    expect(formatLongDate(lateEvening, "UTC")).toBe("March 3rd, 2025");
    expect(formatLongDate(lateEvening, "Asia/Tokyo")).toBe("March 4th, 2025");
    expect(formatLongDate(lateEvening, "America/Los_Angeles")).toBe("March 3rd, 2025");
  });

  it("rejects an invalid date", () => {
    expect(() => formatLongDate("not a date")).toThrow(RangeError);
  });
});
