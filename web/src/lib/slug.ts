/** "Implied vs. historical volatility" → "implied-vs-historical-volatility". */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A Markdown heading's text and id: `Title {#id}` gives "Title" and "id", else the slug of the text. */
export function headingId(text: string): { text: string; id: string } {
  const match = /^(.*?)\s*\{#([\w-]+)\}\s*$/.exec(text);
  return match ? { text: match[1], id: match[2] } : { text, id: slugify(text) };
}
