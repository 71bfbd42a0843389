import { describe, expect, it } from "vitest";
import { addDays, addMonths, clampDate, dayOfWeek, formatFullDate, formatMonthYear, isIsoDate, monthWeeks, toIsoDate } from "./calendar";

describe("calendar dates", () => {
  it("reads only real YYYY-MM-DD dates", () => {
    expect(isIsoDate("2026-11-23")).toBe(true);
    expect(isIsoDate("2026-02-30")).toBe(false);
    expect(isIsoDate("2026-2-3")).toBe(false);
    expect(isIsoDate("")).toBe(false);
  });

  it("gives the local calendar date", () => {
    expect(toIsoDate(new Date(2026, 10, 23, 23, 59))).toBe("2026-11-23");
    expect(toIsoDate(new Date(2026, 0, 1, 0, 0))).toBe("2026-01-01");
  });

  it("adds days and months across month and year ends", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addMonths("2026-01-31", 1)).toBe("2026-02-28");
    expect(addMonths("2026-11-23", -12)).toBe("2025-11-23");
    expect(addMonths("2028-02-29", -12)).toBe("2027-02-28");
  });

  it("lays a month out in Sunday-first weeks", () => {
    const weeks = monthWeeks("2026-11-23");
    expect(weeks[0]).toEqual(["2026-11-01", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06", "2026-11-07"]);
    expect(weeks[weeks.length - 1]).toEqual(["2026-11-29", "2026-11-30", null, null, null, null, null]);
    expect(monthWeeks("2027-02-10")[0].slice(0, 1)).toEqual([null]);
    expect(dayOfWeek("2026-11-23")).toBe(1);
  });

  it("clamps and names dates", () => {
    expect(clampDate("2026-11-01", "2026-11-23")).toBe("2026-11-23");
    expect(clampDate("2026-12-31", undefined, "2026-12-01")).toBe("2026-12-01");
    expect(formatMonthYear("2026-11-23")).toBe("November 2026");
    expect(formatFullDate("2026-11-23")).toBe("Monday, November 23, 2026");
  });
});
