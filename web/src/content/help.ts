import type { MarkdownMeta } from "@/lib/front-matter";
import { collect, field, list, readingMinutes } from "./collection";

export type HelpCategory = {
  slug: "getting-started" | "trading-guides" | "platform-features" | "account-billing";
  title: string;
  description: string;
};

export const HELP_CATEGORIES: HelpCategory[] = [
  {
    slug: "getting-started",
    title: "Getting Started",
    description: "Create your account, set your investment preferences and find your way around the dashboard.",
  },
  {
    slug: "trading-guides",
    title: "Trading Guides",
    description: "Read a signal, size a position, understand the Greeks and manage the risk of an options trade.",
  },
  {
    slug: "platform-features",
    title: "Platform Features",
    description: "Signals, portfolio tracking, backtests, news analysis, the AI assistant, notifications and API keys.",
  },
  {
    slug: "account-billing",
    title: "Account & Billing",
    description: "Plans and limits, the Pro trial, upgrading, cancelling, and keeping your account secure.",
  },
];

export type HelpArticle = {
  category: HelpCategory["slug"];
  slug: string;
  title: string;
  summary: string;
  keywords: string[];
  order: number;
  headings: string[];
  readingMinutes: number;
  loadBody: () => Promise<string>;
};

const metas = import.meta.glob<MarkdownMeta>("./help/*/*.md", { query: "?meta", import: "default", eager: true });
const bodies = import.meta.glob<string>("./help/*/*.md", { query: "?raw", import: "default" });

const categoryOf = (path: string) => path.split("/").at(-2) ?? "";

/** Every help article, by category and then in its category's order. */
export const HELP_ARTICLES: HelpArticle[] = HELP_CATEGORIES.flatMap((category) => {
  const inCategory = (record: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(record).filter(([path]) => categoryOf(path) === category.slug));
  return collect(inCategory(metas) as Record<string, MarkdownMeta>, inCategory(bodies) as Record<string, () => Promise<string>>)
    .map((entry) => ({
      category: category.slug,
      slug: entry.slug,
      title: field(entry, "title"),
      summary: field(entry, "summary"),
      keywords: list(entry.meta.keywords),
      order: Number(field(entry, "order")),
      headings: entry.headings,
      readingMinutes: readingMinutes(entry.words),
      loadBody: entry.loadBody,
    }))
    .sort((a, b) => a.order - b.order);
});

export function findHelpCategory(slug: string | undefined): HelpCategory | undefined {
  return HELP_CATEGORIES.find((category) => category.slug === slug);
}

export function helpArticlesIn(category: HelpCategory["slug"]): HelpArticle[] {
  return HELP_ARTICLES.filter((article) => article.category === category);
}

export function findHelpArticle(category: string | undefined, slug: string | undefined): HelpArticle | undefined {
  return HELP_ARTICLES.find((article) => article.category === category && article.slug === slug);
}

export function helpArticlePath(article: Pick<HelpArticle, "category" | "slug">): string {
  return `/help/${article.category}/${article.slug}`;
}
