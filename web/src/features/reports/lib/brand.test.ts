import { describe, expect, it } from "vitest";
import { makeReportBrand, makeSavedReportBrand } from "@/test/report-fixtures";
import { brandSchema, brandValues, contrastOnWhite, FAINT_CONTRAST, hexOr, LOGO_MAX_BYTES, logoIssue } from "./brand";

describe("the brand form", () => {
  it("starts from the saved brand, or from the house colours with no name or footer", () => {
    expect(brandValues(makeSavedReportBrand({ monthlyEmail: true }))).toEqual({
      name: "Acme Capital",
      primaryColor: "#7c3aed",
      accentColor: "#f59e0b",
      footer: "Acme Capital LLC · Not investment advice.",
      monthlyEmail: true,
    });
    expect(brandValues(makeReportBrand())).toEqual({
      name: "",
      primaryColor: "#2563eb",
      accentColor: "#16a34a",
      footer: "",
      monthlyEmail: false,
    });
  });

  it("checks what the server checks: a one-line name of 1–80, #rrggbb colours, a footer up to 300", () => {
    const valid = { name: " Acme ", primaryColor: "#7C3AED", accentColor: "#f59e0b", footer: "", monthlyEmail: false };
    expect(brandSchema.parse(valid)).toEqual({ ...valid, name: "Acme" });
    const issues = (value: object) => brandSchema.safeParse({ ...valid, ...value }).error?.issues.map((i) => `${i.path}: ${i.message}`);
    expect(issues({ name: "  " })).toEqual(["name: Enter the name your reports carry"]);
    expect(issues({ name: "a".repeat(81) })).toEqual(["name: At most 80 characters"]);
    expect(issues({ name: "Acme\nCapital" })).toEqual(["name: One line, without control characters"]);
    expect(issues({ primaryColor: "#7c3ae", accentColor: "orange" })).toEqual([
      "primaryColor: A colour as #rrggbb, e.g. #1d4ed8",
      "accentColor: A colour as #rrggbb, e.g. #1d4ed8",
    ]);
    expect(issues({ footer: "x".repeat(301) })).toEqual(["footer: At most 300 characters"]);
  });

  it("gives the colour picker a colour it takes", () => {
    expect(hexOr("#7C3AED", "#000000")).toBe("#7c3aed");
    expect(hexOr("#7c3a", "#2563eb")).toBe("#2563eb");
  });

  it("knows a colour that reads faintly on white", () => {
    expect(contrastOnWhite("#000000")).toBeCloseTo(21, 5);
    expect(contrastOnWhite("#ffffff")).toBeCloseTo(1, 5);
    expect(contrastOnWhite("#2563eb")).toBeGreaterThan(FAINT_CONTRAST);
    expect(contrastOnWhite("#fde047")).toBeLessThan(FAINT_CONTRAST);
  });
});

describe("logoIssue", () => {
  it("takes a PNG up to 512 KB and refuses anything else before it is sent", () => {
    expect(logoIssue({ name: "logo.png", type: "image/png", size: LOGO_MAX_BYTES })).toBeNull();
    expect(logoIssue({ name: "logo.png", type: "", size: 1000 })).toBeNull();
    expect(logoIssue({ name: "logo.png", type: "image/png", size: LOGO_MAX_BYTES + 1 })).toBe(
      "This file is 513 KB; the logo may be at most 512 KB.",
    );
    expect(logoIssue({ name: "logo.svg", type: "image/svg+xml", size: 1000 })).toBe(
      "Choose a PNG file. Export an SVG or JPEG logo as PNG first.",
    );
  });
});
