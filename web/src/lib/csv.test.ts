import { describe, expect, it } from "vitest";
import { csvField, toCsv } from "./csv";

describe("csv", () => {
  it("quotes fields with commas, quotes and line breaks, doubling quotes", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("Salesforce, Inc.")).toBe('"Salesforce, Inc."');
    expect(csvField('The "Best" Co')).toBe('"The ""Best"" Co"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
  });

  it("writes numbers as they are and empty cells for missing values", () => {
    expect(csvField(-12.5)).toBe("-12.5");
    expect(csvField(null)).toBe("");
    expect(csvField(undefined)).toBe("");
    expect(csvField(false)).toBe("false");
  });

  it("defuses text a spreadsheet would run as a formula", () => {
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-1+2")).toBe("'-1+2");
    expect(csvField("@cmd, x")).toBe(`"'@cmd, x"`);
  });

  it("joins a header and rows with CRLF", () => {
    expect(
      toCsv(
        ["a", "b"],
        [
          [1, "x,y"],
          [null, 2],
        ],
      ),
    ).toBe('a,b\r\n1,"x,y"\r\n,2\r\n');
  });
});
