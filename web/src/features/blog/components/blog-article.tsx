import { ArrowLeftIcon } from "lucide-react";
import { Link } from "react-router";
import { Breadcrumbs } from "@/components/breadcrumbs";
import { MarkdownBody } from "@/components/markdown-body";
import { Badge } from "@/components/ui/badge";
import { BLOG_POSTS, type BlogPost } from "@/content/blog";
import { usePageMeta } from "@/lib/page-meta";
import { relatedPosts } from "../lib/filter";
import { PostCard } from "./post-card";
import { PostMeta } from "./post-meta";

export function BlogArticle({ post }: { post: BlogPost }) {
  usePageMeta(post.title, post.description);
  const related = relatedPosts(BLOG_POSTS, post);
  return (
    <>
      <article>
        <header className="border-b bg-sidebar">
          <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-14 lg:px-8">
            <Breadcrumbs items={[{ label: "Blog", href: "/blog" }, { label: post.title }]} />
            <Badge variant="soft" className="mt-6">
              {post.category}
            </Badge>
            <h1 className="mt-4 text-3xl font-semibold tracking-tight sm:text-4xl">{post.title}</h1>
            <p className="mt-4 text-lg text-muted-foreground">{post.description}</p>
            <div className="mt-6 flex items-center gap-3">
              <div
                className="flex size-10 items-center justify-center rounded-full bg-primary/10 text-sm font-semibold text-primary"
                aria-hidden
              >
                {post.author
                  .split(" ")
                  .map((part) => part[0])
                  .join("")}
              </div>
              <div>
                <p className="text-sm font-medium">
                  {post.author} <span className="font-normal text-muted-foreground">· {post.authorRole}</span>
                </p>
                <PostMeta post={post} />
              </div>
            </div>
          </div>
        </header>
        <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:px-8">
          <MarkdownBody id={`blog/${post.slug}`} load={post.loadBody} />
          <div className="mt-12 border-t pt-8">
            <Link to="/blog" className="inline-flex items-center gap-2 text-sm font-medium text-primary underline-offset-4 hover:underline">
              <ArrowLeftIcon className="size-4" aria-hidden />
              All articles
            </Link>
          </div>
        </div>
      </article>
      <section aria-labelledby="related-heading" className="border-t bg-sidebar">
        <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
          <h2 id="related-heading" className="text-2xl font-semibold tracking-tight">
            Keep reading
          </h2>
          <div className="mt-6 grid gap-6 md:grid-cols-3">
            {related.map((p) => (
              <PostCard key={p.slug} post={p} />
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
