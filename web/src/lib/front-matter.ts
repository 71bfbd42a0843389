/**
 * Front matter of the Markdown files under src/content: a block of `key: value` lines between
 * two `---` lines at the top. Values are plain strings (no YAML); lists are comma-separated and
 * split by the content modules that need them.
 *
 * Used at build time too (vite.config.ts turns `file.md?meta` into its front matter), so this
 * file must not touch the DOM.
 */
export type FrontMatter = Record<string, string>;

export type ParsedMarkdown = { data: FrontMatter; body: string };

/** What a listing needs to know about a Markdown file without its body. */
export type MarkdownMeta = FrontMatter & {
  /** Words in the body, for reading times. */
  words: string;
  /** The body's `##` headings, in order, for tables of contents and search. */
  headings: string;
};

const FENCE = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export function parseFrontMatter(raw: string): ParsedMarkdown {
  const match = FENCE.exec(raw);
  if (!match) return { data: {}, body: raw };
  const data: FrontMatter = {};
  for (const line of match[1].split(/\r?\n/)) {
    if (!line.trim() || line.trimStart().startsWith("#")) continue;
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`Front matter line without a key: "${line}"`);
    data[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { data, body: raw.slice(match[0].length) };
}

/** The `##` headings of a Markdown body, as written (an explicit `{#id}` suffix is kept). */
export function headingsOf(body: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of body.split(/\r?\n/)) {
    if (line.startsWith("```")) fenced = !fenced;
    if (!fenced && line.startsWith("## ")) headings.push(line.slice(3).trim());
  }
  return headings;
}

export function countWords(body: string): number {
  return body.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** The front matter plus word count and headings (headings joined with "\n"). */
export function markdownMeta(raw: string): MarkdownMeta {
  const { data, body } = parseFrontMatter(raw);
  return { ...data, words: String(countWords(body)), headings: headingsOf(body).join("\n") };
}
