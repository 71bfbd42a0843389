import type { MarkdownMeta } from "@/lib/front-matter";
import { collect, field } from "./collection";

export const DEPARTMENTS = ["Engineering", "AI/ML", "Research", "Product", "Sales"] as const;
export type Department = (typeof DEPARTMENTS)[number];

export type Opening = {
  slug: string;
  title: string;
  department: Department;
  location: string;
  employment: string;
  /** Pay range as posted (New York law requires one in every listing). */
  salary: string;
  summary: string;
  order: number;
  headings: string[];
  loadBody: () => Promise<string>;
};

const metas = import.meta.glob<MarkdownMeta>("./careers/*.md", { query: "?meta", import: "default", eager: true });
const bodies = import.meta.glob<string>("./careers/*.md", { query: "?raw", import: "default" });

function isDepartment(value: string): value is Department {
  return (DEPARTMENTS as readonly string[]).includes(value);
}

/** The open positions, in the order the careers page lists them. */
export const OPENINGS: Opening[] = collect(metas, bodies)
  .map((entry) => {
    const department = field(entry, "department");
    if (!isDepartment(department)) throw new Error(`${entry.slug}: unknown department "${department}"`);
    return {
      slug: entry.slug,
      title: field(entry, "title"),
      department,
      location: field(entry, "location"),
      employment: field(entry, "employment"),
      salary: field(entry, "salary"),
      summary: field(entry, "summary"),
      order: Number(field(entry, "order")),
      headings: entry.headings,
      loadBody: entry.loadBody,
    };
  })
  .sort((a, b) => a.order - b.order);

export function findOpening(slug: string | undefined): Opening | undefined {
  return OPENINGS.find((opening) => opening.slug === slug);
}
