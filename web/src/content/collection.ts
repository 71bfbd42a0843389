import { type MarkdownMeta, parseFrontMatter } from "@/lib/front-matter";

/**
 * One Markdown file of a content collection: its front matter (bundled with the listing) and
 * a loader for its body (a chunk of its own, fetched when the page opens).
 */
export type ContentEntry = {
  slug: string;
  meta: MarkdownMeta;
  /** Word count of the body. */
  words: number;
  /** The body's `##` headings. */
  headings: string[];
  loadBody: () => Promise<string>;
};

const WORDS_PER_MINUTE = 220;

/** Reading time in whole minutes, at least 1. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / WORDS_PER_MINUTE));
}

/**
 * Pairs the `?meta` and `?raw` globs of one folder into entries keyed by file name.
 * `folder` prefixes the glob keys ("./blog/").
 */
export function collect(metas: Record<string, MarkdownMeta>, bodies: Record<string, () => Promise<string>>): ContentEntry[] {
  return Object.entries(metas)
    .map(([path, meta]) => {
      const load = bodies[path];
      if (!load) throw new Error(`No body loader for ${path}`);
      return {
        slug: path.replace(/^.*\//, "").replace(/\.md$/, ""),
        meta,
        words: Number(meta.words) || 0,
        headings: meta.headings ? meta.headings.split("\n") : [],
        loadBody: async () => parseFrontMatter(await load()).body,
      };
    })
    .sort((a, b) => a.slug.localeCompare(b.slug));
}

/** A front-matter field that must be present. */
export function field(entry: ContentEntry, key: string): string {
  const value = entry.meta[key];
  if (!value) throw new Error(`${entry.slug}: front matter has no "${key}"`);
  return value;
}

/** A comma-separated front-matter list. */
export function list(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
