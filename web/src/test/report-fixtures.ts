import type { ReportBrandView } from "@/lib/api/models";

/** GET /api/reports/brand for an account without a brand of its own: the house brand. */
export function makeReportBrand(overrides: Partial<ReportBrandView> = {}): ReportBrandView {
  return {
    available: true,
    custom: false,
    name: "Strikeline",
    primaryColor: "#2563eb",
    accentColor: "#16a34a",
    footer: "Strikeline · Signals and risk analytics for options traders. Not investment advice.",
    hasLogo: false,
    monthlyEmail: false,
    ...overrides,
  };
}

/** A saved brand of its own, as a Premium account's GET /api/reports/brand answers it. */
export function makeSavedReportBrand(overrides: Partial<ReportBrandView> = {}): ReportBrandView {
  return makeReportBrand({
    custom: true,
    name: "Acme Capital",
    primaryColor: "#7c3aed",
    accentColor: "#f59e0b",
    footer: "Acme Capital LLC · Not investment advice.",
    ...overrides,
  });
}

/** The first bytes of a PDF file, enough for a download to be one. */
export const PDF_BYTES = new TextEncoder().encode("%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n");
