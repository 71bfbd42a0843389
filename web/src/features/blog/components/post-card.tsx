import { ArrowRightIcon } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import type { BlogPost } from "@/content/blog";
import { cn } from "@/lib/utils";
import { PostMeta } from "./post-meta";

/** One article in a list; the title links to /blog/{slug}. */
export function PostCard({ post, featured = false }: { post: BlogPost; featured?: boolean }) {
  return (
    <article
      className={cn(
        "group relative flex flex-col rounded-2xl border bg-card p-6 shadow-xs transition-colors hover:border-primary/50",
        featured && "p-8 sm:p-10",
      )}
    >
      <div className="flex flex-wrap items-center gap-2">
        {featured ? <Badge>Featured</Badge> : null}
        <Badge variant="soft">{post.category}</Badge>
      </div>
      <h3 className={cn("mt-4 font-semibold tracking-tight", featured ? "text-2xl sm:text-3xl" : "text-lg")}>
        <Link
          to={`/blog/${post.slug}`}
          className="outline-none after:absolute after:inset-0 after:rounded-2xl focus-visible:after:ring-2 focus-visible:after:ring-ring"
        >
          {post.title}
        </Link>
      </h3>
      <p className={cn("mt-3 flex-1 text-muted-foreground", featured ? "text-base" : "text-sm leading-relaxed")}>{post.description}</p>
      <div className="mt-6 flex items-end justify-between gap-4">
        <div>
          <p className="text-sm font-medium">{post.author}</p>
          <PostMeta post={post} />
        </div>
        <ArrowRightIcon className="size-5 shrink-0 text-primary transition-transform group-hover:translate-x-0.5" aria-hidden />
      </div>
    </article>
  );
}
