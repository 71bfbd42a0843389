import { ArrowRightIcon } from "lucide-react";
import { Link } from "react-router";
import { Breadcrumbs } from "@/components/breadcrumbs";
import { HELP_CATEGORIES, type HelpCategory, helpArticlePath, helpArticlesIn } from "@/content/help";
import { usePageMeta } from "@/lib/page-meta";
import { cn } from "@/lib/utils";
import { CATEGORY_ICONS } from "./help-center";

/** Other categories, for the side column of category and article pages. */
export function CategoryNav({ current }: { current: HelpCategory["slug"] }) {
  return (
    <nav aria-label="Help categories" className="rounded-2xl border bg-card p-4">
      <p className="px-2 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">Categories</p>
      <ul className="grid gap-1">
        {HELP_CATEGORIES.map((category) => {
          const Icon = CATEGORY_ICONS[category.slug];
          const active = category.slug === current;
          return (
            <li key={category.slug}>
              <Link
                to={`/help/${category.slug}`}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "flex items-center gap-2.5 rounded-md px-2 py-2 text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
                  active ? "bg-accent font-medium text-foreground" : "text-muted-foreground",
                )}
              >
                <Icon className="size-4" aria-hidden />
                <span className="flex-1">{category.title}</span>
                <span className="text-xs tabular">{helpArticlesIn(category.slug).length}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function HelpCategoryPage({ category }: { category: HelpCategory }) {
  usePageMeta(`${category.title} · Help Center`, category.description);
  const articles = helpArticlesIn(category.slug);
  const Icon = CATEGORY_ICONS[category.slug];
  return (
    <>
      <section className="border-b bg-sidebar">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-14 lg:px-8">
          <Breadcrumbs items={[{ label: "Help Center", href: "/help" }, { label: category.title }]} />
          <div className="mt-6 flex items-center gap-3">
            <div className="flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary">
              <Icon className="size-5" aria-hidden />
            </div>
            <h1 className="text-3xl font-semibold tracking-tight sm:text-4xl">{category.title}</h1>
          </div>
          <p className="mt-4 max-w-2xl text-lg text-muted-foreground">{category.description}</p>
        </div>
      </section>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_16rem] lg:px-8">
        <section aria-labelledby="articles-heading">
          <h2 id="articles-heading" className="text-sm font-medium text-muted-foreground">
            {articles.length === 1 ? "1 article" : `${articles.length} articles`}
          </h2>
          <ul className="mt-4 divide-y rounded-xl border bg-card">
            {articles.map((article) => (
              <li key={article.slug}>
                <Link
                  to={helpArticlePath(article)}
                  className="group flex items-start justify-between gap-4 p-5 outline-none hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
                >
                  <span>
                    <span className="block font-medium group-hover:text-primary">{article.title}</span>
                    <span className="mt-1 block text-sm text-muted-foreground">{article.summary}</span>
                    <span className="mt-2 block text-xs text-muted-foreground">{article.readingMinutes} min read</span>
                  </span>
                  <ArrowRightIcon className="mt-1 size-4 shrink-0 text-primary" aria-hidden />
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <aside>
          <CategoryNav current={category.slug} />
        </aside>
      </div>
    </>
  );
}
