import { HELP_CATEGORIES, type HelpArticle } from "@/content/help";
import { searchItems } from "@/lib/search";

/** The six popular topics; the Help Center shows the first four as chips. */
export const POPULAR_TOPICS = [
  "Reading trading signals",
  "Risk management",
  "Setting up your first portfolio",
  "Using the AI assistant",
  "Options Greeks",
  "Managing notifications",
] as const;

const categoryTitle = (slug: string) => HELP_CATEGORIES.find((c) => c.slug === slug)?.title ?? "";

/** Help articles matching `query`, best match first. */
export function searchHelp(articles: readonly HelpArticle[], query: string): HelpArticle[] {
  if (!query.trim()) return [];
  return searchItems(articles, query, (article) => [
    { text: article.title, weight: 4 },
    { text: article.keywords.join(" "), weight: 3 },
    { text: article.summary, weight: 2 },
    { text: article.headings.join(" "), weight: 2 },
    { text: categoryTitle(article.category), weight: 1 },
  ]);
}
