import { describe, expect, it } from "vitest";
import { formatMonthDay, timeAgo } from "./dates";

describe("timeAgo", () => {
  it("says how long ago", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    expect(timeAgo("2026-11-23T11:59:30Z", now)).toBe("Just now");
    expect(timeAgo("2026-11-23T11:59:00Z", now)).toBe("1 minute ago");
    expect(timeAgo("2026-11-23T09:00:00Z", now)).toBe("3 hours ago");
    expect(timeAgo("2026-11-21T12:00:00Z", now)).toBe("2 days ago");
  });
});

describe("formatMonthDay", () => {
  it("shows a calendar date as month and day, whatever the time zone", () => {
    expect(formatMonthDay("2026-12-18")).toBe("Dec 18");
    expect(formatMonthDay("2026-01-01T23:30:00Z")).toBe("Jan 1");
    expect(formatMonthDay("not a date")).toBe("not a date");
  });
});
