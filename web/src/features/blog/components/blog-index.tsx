import { NewspaperIcon } from "lucide-react";
import type * as React from "react";
import { useSearchParams } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { FilterChips } from "@/components/filter-chips";
import { SearchInput } from "@/components/search-input";
import { Button } from "@/components/ui/button";
import { BLOG_CATEGORIES, BLOG_POSTS, type BlogCategory } from "@/content/blog";
import { filterPosts } from "../lib/filter";
import { PostCard } from "./post-card";

const CATEGORY_OPTIONS = [
  { value: "All" as const, label: "All" },
  ...BLOG_CATEGORIES.map((category) => ({ value: category, label: category })),
];

function parseCategory(value: string | null): BlogCategory | "All" {
  return (BLOG_CATEGORIES as readonly string[]).includes(value ?? "") ? (value as BlogCategory) : "All";
}

/**
 * The blog: search and category chips filter the articles (kept in the URL, so a filtered
 * list can be shared); unfiltered, one featured article and the six latest.
 */
export function BlogIndex({ newsletter }: { newsletter: React.ReactNode }) {
  const [params, setParams] = useSearchParams();
  const query = params.get("q") ?? "";
  const category = parseCategory(params.get("category"));

  const update = (key: "q" | "category", value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value && value !== "All") next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  const filtering = query.trim() !== "" || category !== "All";
  const results = filterPosts(BLOG_POSTS, { query, category });
  const featured = BLOG_POSTS.find((post) => post.featured) ?? BLOG_POSTS[0];
  const latest = BLOG_POSTS.filter((post) => post !== featured).slice(0, 6);

  return (
    <div>
      <div className="flex flex-col gap-5">
        <SearchInput
          id="blog-search"
          label="Search articles"
          placeholder="Search articles, e.g. vega or straddle"
          value={query}
          onChange={(value) => update("q", value)}
          className="max-w-xl"
          inputClassName="h-11"
        />
        <FilterChips label="Categories" options={CATEGORY_OPTIONS} value={category} onChange={(value) => update("category", value)} />
      </div>

      {filtering ? (
        <section aria-labelledby="results-heading" className="mt-10">
          <h2 id="results-heading" className="text-sm font-medium text-muted-foreground" aria-live="polite">
            {results.length === 1 ? "1 article" : `${results.length} articles`}
            {category !== "All" ? ` in ${category}` : ""}
            {query.trim() ? ` matching “${query.trim()}”` : ""}
          </h2>
          {results.length > 0 ? (
            <div className="mt-5 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {results.map((post) => (
                <PostCard key={post.slug} post={post} />
              ))}
            </div>
          ) : (
            <EmptyState
              className="mt-5"
              icon={NewspaperIcon}
              title="No articles found"
              description="No article matches your search. Try another word or category."
              action={
                <Button variant="outline" onClick={() => setParams({}, { replace: true, preventScrollReset: true })}>
                  Clear filters
                </Button>
              }
            />
          )}
        </section>
      ) : (
        <>
          <section aria-labelledby="featured-heading" className="mt-10">
            <h2 id="featured-heading" className="sr-only">
              Featured article
            </h2>
            <PostCard post={featured} featured />
          </section>
          <section aria-labelledby="latest-heading" className="mt-14">
            <h2 id="latest-heading" className="text-2xl font-semibold tracking-tight">
              Latest articles
            </h2>
            <div className="mt-6 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {latest.map((post) => (
                <PostCard key={post.slug} post={post} />
              ))}
            </div>
          </section>
        </>
      )}

      <section aria-labelledby="newsletter-heading" className="mt-16 rounded-2xl border bg-sidebar p-6 sm:p-10">
        <div className="grid gap-6 lg:grid-cols-2 lg:items-center">
          <div>
            <h2 id="newsletter-heading" className="text-xl font-semibold tracking-tight">
              Get new articles by email
            </h2>
            <p className="mt-2 text-sm text-muted-foreground">
              Options education and strategy notes, when we publish them. No spam, and no performance promises.
            </p>
          </div>
          {newsletter}
        </div>
      </section>
    </div>
  );
}
