import type { DocPage } from "@/content/docs";
import { searchItems } from "@/lib/search";

/** Anything the documentation page lists: a guide or reference page, a feature link, an endpoint. */
export type DocItem = {
  kind: "guide" | "reference" | "feature" | "endpoint";
  title: string;
  description: string;
  href: string;
  /** Extra words that find the item. */
  keywords?: string;
  /** The group or tab the item belongs to. */
  group: string;
};

export function docPageItem(page: DocPage): DocItem {
  return {
    kind: page.kind,
    title: page.title,
    description: page.description,
    href: `/docs/${page.slug}`,
    keywords: [...page.keywords, ...page.headings].join(" "),
    group: page.kind === "guide" ? "Quick-start guides" : "Reference",
  };
}

/** Items matching `query`, best first; nothing for an empty query. */
export function searchDocs(items: readonly DocItem[], query: string): DocItem[] {
  if (!query.trim()) return [];
  return searchItems(items, query, (item) => [
    { text: item.title, weight: 4 },
    { text: item.keywords, weight: 2 },
    { text: item.description, weight: 2 },
    { text: item.group, weight: 1 },
  ]);
}
