import { headingId } from "@/lib/slug";

/** Links to a page's `##` sections (ids as the Markdown renderer gives them). */
export function TableOfContents({ headings, title = "On this page" }: { headings: string[]; title?: string }) {
  if (headings.length === 0) return null;
  return (
    <nav aria-label={title} className="rounded-2xl border bg-card p-4">
      <p className="px-2 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">{title}</p>
      <ol className="grid gap-0.5">
        {headings.map((heading) => {
          const { text, id } = headingId(heading);
          return (
            <li key={id}>
              <a
                href={`#${id}`}
                className="block rounded-md px-2 py-1.5 text-sm text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
              >
                {text}
              </a>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
