import { describe, expect, it } from "vitest";
import { DOC_PAGES } from "@/content/docs";
import { type DocItem, docPageItem, searchDocs } from "./search";

const items: DocItem[] = [
  ...DOC_PAGES.map(docPageItem),
  {
    kind: "endpoint",
    title: "GET /api/plans",
    description: "The plans for sale.",
    href: "/api?endpoint=GET%20%2Fapi%2Fplans",
    group: "API endpoints",
    keywords: "api endpoint plans",
  },
];

describe("documentation search", () => {
  it("finds guides by title, keyword and section heading", () => {
    expect(searchDocs(items, "portfolio")[0].href).toBe("/docs/portfolio-setup");
    expect(searchDocs(items, "retry-after").map((i) => i.href)).toContain("/docs/errors");
    expect(searchDocs(items, "problem details")[0].href).toBe("/docs/errors");
  });

  it("finds endpoints and returns nothing for an empty query", () => {
    expect(searchDocs(items, "plans").map((i) => i.kind)).toContain("endpoint");
    expect(searchDocs(items, "")).toEqual([]);
  });
});
