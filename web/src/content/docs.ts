import type { MarkdownMeta } from "@/lib/front-matter";
import { collect, field, list } from "./collection";

export type DocLevel = "Beginner" | "Intermediate" | "Advanced";

export type DocPage = {
  slug: string;
  title: string;
  description: string;
  /** "guide": a quick-start guide with a duration and level; "reference": a reference page. */
  kind: "guide" | "reference";
  /** Minutes a guide takes to follow. */
  duration: number | null;
  level: DocLevel | null;
  keywords: string[];
  order: number;
  headings: string[];
  loadBody: () => Promise<string>;
};

const metas = import.meta.glob<MarkdownMeta>("./docs/*.md", { query: "?meta", import: "default", eager: true });
const bodies = import.meta.glob<string>("./docs/*.md", { query: "?raw", import: "default" });

const LEVELS: DocLevel[] = ["Beginner", "Intermediate", "Advanced"];

export const DOC_PAGES: DocPage[] = collect(metas, bodies)
  .map((entry) => {
    const kind = field(entry, "kind");
    if (kind !== "guide" && kind !== "reference") throw new Error(`${entry.slug}: unknown kind "${kind}"`);
    const level = entry.meta.level as DocLevel | undefined;
    if (kind === "guide" && (!level || !LEVELS.includes(level))) throw new Error(`${entry.slug}: guide without a level`);
    return {
      slug: entry.slug,
      title: field(entry, "title"),
      description: field(entry, "description"),
      kind,
      duration: kind === "guide" ? Number(field(entry, "duration")) : null,
      level: kind === "guide" ? (level ?? null) : null,
      keywords: list(entry.meta.keywords),
      order: Number(field(entry, "order")),
      headings: entry.headings,
      loadBody: entry.loadBody,
    } satisfies DocPage;
  })
  .sort((a, b) => a.order - b.order);

export const QUICK_START_GUIDES = DOC_PAGES.filter((page) => page.kind === "guide");

export function findDocPage(slug: string | undefined): DocPage | undefined {
  return DOC_PAGES.find((page) => page.slug === slug);
}
