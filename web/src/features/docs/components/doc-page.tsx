import { ArrowLeftIcon, ArrowRightIcon, ClockIcon } from "lucide-react";
import { Link } from "react-router";
import { Breadcrumbs } from "@/components/breadcrumbs";
import { MarkdownBody } from "@/components/markdown-body";
import { TableOfContents } from "@/components/table-of-contents";
import { Badge } from "@/components/ui/badge";
import { type DocPage as DocPageData, QUICK_START_GUIDES } from "@/content/docs";
import { usePageMeta } from "@/lib/page-meta";

/** A /docs/{slug} page: a quick-start guide (duration, level, next guide) or a reference page. */
export function DocPage({ page }: { page: DocPageData }) {
  usePageMeta(page.kind === "guide" ? `${page.title} guide` : page.title, page.description);
  const index = QUICK_START_GUIDES.findIndex((guide) => guide.slug === page.slug);
  const next = index >= 0 ? QUICK_START_GUIDES[index + 1] : undefined;
  return (
    <>
      <section className="border-b bg-sidebar">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-14 lg:px-8">
          <Breadcrumbs items={[{ label: "Documentation", href: "/documentation" }, { label: page.title }]} />
          <div className="mt-6 flex flex-wrap items-center gap-2">
            {page.kind === "guide" ? (
              <>
                <Badge variant="soft">Quick-start guide</Badge>
                <span className="inline-flex items-center gap-1 text-sm text-muted-foreground">
                  <ClockIcon className="size-4" aria-hidden />
                  {page.duration} min
                </span>
                {page.level ? <Badge variant="outline">{page.level}</Badge> : null}
              </>
            ) : (
              <Badge variant="soft">Reference</Badge>
            )}
          </div>
          <h1 className="mt-4 max-w-3xl text-3xl font-semibold tracking-tight sm:text-4xl">{page.title}</h1>
          <p className="mt-4 max-w-3xl text-lg text-muted-foreground">{page.description}</p>
        </div>
      </section>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_16rem] lg:px-8">
        <article className="min-w-0 max-w-3xl">
          <MarkdownBody id={`docs/${page.slug}`} load={page.loadBody} />
          <div className="mt-12 flex flex-col gap-4 border-t pt-8 sm:flex-row sm:items-center sm:justify-between">
            <Link
              to="/documentation"
              className="inline-flex items-center gap-2 text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              <ArrowLeftIcon className="size-4" aria-hidden />
              Documentation
            </Link>
            {next ? (
              <Link
                to={`/docs/${next.slug}`}
                className="inline-flex items-center gap-2 text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                Next guide: {next.title}
                <ArrowRightIcon className="size-4" aria-hidden />
              </Link>
            ) : null}
          </div>
        </article>
        <aside className="lg:sticky lg:top-24 lg:self-start">
          <TableOfContents headings={page.headings} />
        </aside>
      </div>
    </>
  );
}
