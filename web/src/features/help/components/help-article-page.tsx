import { ArrowLeftIcon, MessageCircleQuestionIcon } from "lucide-react";
import { Link } from "react-router";
import { Breadcrumbs } from "@/components/breadcrumbs";
import { MarkdownBody } from "@/components/markdown-body";
import { SUPPORT_RESPONSE_TEXT } from "@/content/company";
import { type HelpArticle, type HelpCategory, helpArticlePath, helpArticlesIn } from "@/content/help";
import { usePageMeta } from "@/lib/page-meta";
import { CategoryNav } from "./help-category-page";

export function HelpArticlePage({ article, category }: { article: HelpArticle; category: HelpCategory }) {
  usePageMeta(article.title, article.summary);
  const siblings = helpArticlesIn(category.slug).filter((a) => a.slug !== article.slug);
  return (
    <>
      <section className="border-b bg-sidebar">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-14 lg:px-8">
          <Breadcrumbs
            items={[
              { label: "Help Center", href: "/help" },
              { label: category.title, href: `/help/${category.slug}` },
              { label: article.title },
            ]}
          />
          <h1 className="mt-6 max-w-3xl text-3xl font-semibold tracking-tight sm:text-4xl">{article.title}</h1>
          <p className="mt-4 max-w-3xl text-lg text-muted-foreground">{article.summary}</p>
          <p className="mt-3 text-sm text-muted-foreground">{article.readingMinutes} min read</p>
        </div>
      </section>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_16rem] lg:px-8">
        <article className="min-w-0 max-w-3xl">
          <MarkdownBody id={`help/${article.category}/${article.slug}`} load={article.loadBody} />
          <div className="mt-12 flex flex-col gap-4 rounded-xl border bg-card p-5 sm:flex-row sm:items-center">
            <MessageCircleQuestionIcon className="size-6 shrink-0 text-primary" aria-hidden />
            <p className="flex-1 text-sm text-muted-foreground">
              Didn&apos;t find your answer? Our support team replies within {SUPPORT_RESPONSE_TEXT}.
            </p>
            <Link to="/help#contact" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
              Contact support
            </Link>
          </div>
          <div className="mt-8">
            <Link
              to={`/help/${category.slug}`}
              className="inline-flex items-center gap-2 text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              <ArrowLeftIcon className="size-4" aria-hidden />
              All {category.title} articles
            </Link>
          </div>
        </article>
        <aside className="grid content-start gap-6">
          {siblings.length > 0 ? (
            <nav aria-label={`More in ${category.title}`} className="rounded-2xl border bg-card p-4">
              <p className="px-2 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">More in {category.title}</p>
              <ul className="grid gap-1">
                {siblings.map((a) => (
                  <li key={a.slug}>
                    <Link
                      to={helpArticlePath(a)}
                      className="block rounded-md px-2 py-2 text-sm text-muted-foreground outline-none hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
                    >
                      {a.title}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <CategoryNav current={category.slug} />
        </aside>
      </div>
    </>
  );
}
