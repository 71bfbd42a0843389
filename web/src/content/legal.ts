import type { MarkdownMeta } from "@/lib/front-matter";
import { collect, field } from "./collection";

export type LegalDocument = {
  slug: "privacy" | "terms" | "community-guidelines";
  title: string;
  description: string;
  /** As printed: "January 28, 2025". */
  updated: string;
  headings: string[];
  loadBody: () => Promise<string>;
};

const metas = import.meta.glob<MarkdownMeta>("./legal/*.md", { query: "?meta", import: "default", eager: true });
const bodies = import.meta.glob<string>("./legal/*.md", { query: "?raw", import: "default" });

const DOCUMENTS: LegalDocument[] = collect(metas, bodies).map((entry) => ({
  slug: entry.slug as LegalDocument["slug"],
  title: field(entry, "title"),
  description: field(entry, "description"),
  updated: field(entry, "updated"),
  headings: entry.headings,
  loadBody: entry.loadBody,
}));

export function legalDocument(slug: LegalDocument["slug"]): LegalDocument {
  const found = DOCUMENTS.find((doc) => doc.slug === slug);
  if (!found) throw new Error(`No legal document "${slug}"`);
  return found;
}
