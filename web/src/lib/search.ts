/**
 * Client-side search over the site's own content (blog, careers, help, documentation).
 * Every word of the query must occur, as the start of a word, in one of an item's fields;
 * items rank by the weight of the fields their words were found in (a title beats a body).
 */

/** Words too common to narrow anything down. */
const STOP_WORDS = new Set([
  "a",
  "an",
  "and",
  "are",
  "as",
  "at",
  "be",
  "by",
  "can",
  "do",
  "does",
  "for",
  "from",
  "how",
  "i",
  "in",
  "is",
  "it",
  "my",
  "of",
  "on",
  "or",
  "the",
  "to",
  "up",
  "what",
  "when",
  "with",
  "you",
  "your",
]);

/** Lower case, accents removed, anything but letters and digits turned into single spaces. */
export function normalize(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The words of a query that take part in matching. */
export function queryTerms(query: string): string[] {
  const words = normalize(query).split(" ").filter(Boolean);
  const meaningful = words.filter((w) => !STOP_WORDS.has(w));
  // A query of stop words only ("how to") still searches for them.
  return [...new Set(meaningful.length > 0 ? meaningful : words)];
}

/** Singular and plural of a term are treated alike ("signal" finds "signals" and back). */
function variants(term: string): string[] {
  if (term.length > 3 && term.endsWith("ies")) return [term, `${term.slice(0, -3)}y`];
  if (term.length > 3 && term.endsWith("s") && !term.endsWith("ss")) return [term, term.slice(0, -1)];
  return [term];
}

export type SearchField = { text: string | undefined; weight: number };

/** Whether `term` starts a word of `normalizedText` (which `normalize` produced). */
function startsAWord(normalizedText: string, term: string): boolean {
  return ` ${normalizedText}`.includes(` ${term}`);
}

/**
 * The score of one item for the query's terms: the sum, over terms, of the highest weight of
 * a field containing it; 0 when any term is missing.
 */
export function scoreFields(fields: SearchField[], terms: string[]): number {
  if (terms.length === 0) return 1;
  const texts = fields.map((f) => ({ text: normalize(f.text ?? ""), weight: f.weight }));
  let score = 0;
  for (const term of terms) {
    const forms = variants(term);
    let best = 0;
    for (const { text, weight } of texts) {
      if (weight > best && forms.some((form) => startsAWord(text, form))) best = weight;
    }
    if (best === 0) return 0;
    score += best;
  }
  return score;
}

/**
 * The items matching `query`, best first (ties keep their original order). An empty query
 * returns every item unchanged.
 */
export function searchItems<T>(items: readonly T[], query: string, fieldsOf: (item: T) => SearchField[]): T[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [...items];
  return items
    .map((item, index) => ({ item, index, score: scoreFields(fieldsOf(item), terms) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.item);
}
