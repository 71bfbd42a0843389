import { describe, expect, it } from "vitest";
import { OPENINGS } from "@/content/careers";
import { applyHref, countByDepartment, filterOpenings } from "./filter";

describe("careers filters", () => {
  it("filters openings by department chip", () => {
    expect(filterOpenings(OPENINGS, "All")).toHaveLength(6);
    expect(filterOpenings(OPENINGS, "Engineering").map((o) => o.slug)).toEqual(["senior-frontend-engineer", "devops-engineer"]);
    expect(filterOpenings(OPENINGS, "AI/ML").map((o) => o.slug)).toEqual(["ml-engineer"]);
    expect(filterOpenings(OPENINGS, "Sales").map((o) => o.slug)).toEqual(["sdr"]);
  });

  it("counts openings per department", () => {
    expect(countByDepartment(OPENINGS)).toEqual({ All: 6, Engineering: 2, "AI/ML": 1, Research: 1, Product: 1, Sales: 1 });
  });

  it("builds an application email link", () => {
    expect(applyHref("careers@example.com", { title: "ML Engineer" })).toBe(
      "mailto:careers@example.com?subject=Application%3A%20ML%20Engineer",
    );
  });
});
