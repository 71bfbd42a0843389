import type { Department, Opening } from "@/content/careers";

/** The openings in `department`, or all of them for "All". */
export function filterOpenings(openings: readonly Opening[], department: Department | "All"): Opening[] {
  return department === "All" ? [...openings] : openings.filter((opening) => opening.department === department);
}

/** How many openings each department has, for the chips. */
export function countByDepartment(openings: readonly Opening[]): Record<string, number> {
  const counts: Record<string, number> = { All: openings.length };
  for (const opening of openings) counts[opening.department] = (counts[opening.department] ?? 0) + 1;
  return counts;
}

/** mailto: link for applying, with the role in the subject. */
export function applyHref(email: string, opening: Pick<Opening, "title">): string {
  return `mailto:${email}?subject=${encodeURIComponent(`Application: ${opening.title}`)}`;
}
