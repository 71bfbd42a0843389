import type { MarkdownMeta } from "@/lib/front-matter";
import { collect, field, list, readingMinutes } from "./collection";

export const BLOG_CATEGORIES = [
  "Education",
  "Strategy",
  "Market Analysis",
  "AI & Technology",
  "Risk Management",
  "Technical Analysis",
] as const;

export type BlogCategory = (typeof BLOG_CATEGORIES)[number];

export type BlogPost = {
  slug: string;
  title: string;
  description: string;
  category: BlogCategory;
  /** ISO date, yyyy-mm-dd. */
  date: string;
  author: string;
  authorRole: string;
  featured: boolean;
  tags: string[];
  headings: string[];
  readingMinutes: number;
  loadBody: () => Promise<string>;
};

const metas = import.meta.glob<MarkdownMeta>("./blog/*.md", { query: "?meta", import: "default", eager: true });
const bodies = import.meta.glob<string>("./blog/*.md", { query: "?raw", import: "default" });

function isCategory(value: string): value is BlogCategory {
  return (BLOG_CATEGORIES as readonly string[]).includes(value);
}

/** Every article, newest first. */
export const BLOG_POSTS: BlogPost[] = collect(metas, bodies)
  .map((entry) => {
    const category = field(entry, "category");
    if (!isCategory(category)) throw new Error(`${entry.slug}: unknown category "${category}"`);
    return {
      slug: entry.slug,
      title: field(entry, "title"),
      description: field(entry, "description"),
      category,
      date: field(entry, "date"),
      author: field(entry, "author"),
      authorRole: field(entry, "authorRole"),
      featured: entry.meta.featured === "true",
      tags: list(entry.meta.tags),
      headings: entry.headings,
      readingMinutes: readingMinutes(entry.words),
      loadBody: entry.loadBody,
    };
  })
  .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));

export function findPost(slug: string | undefined): BlogPost | undefined {
  return BLOG_POSTS.find((post) => post.slug === slug);
}
