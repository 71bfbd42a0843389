import { ClockIcon } from "lucide-react";
import type { BlogPost } from "@/content/blog";
import { formatLongDate } from "@/lib/dates";

export function PostMeta({ post }: { post: BlogPost }) {
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
      <time dateTime={post.date}>{formatLongDate(post.date)}</time>
      <span aria-hidden>·</span>
      <span className="inline-flex items-center gap-1">
        <ClockIcon className="size-3.5" aria-hidden />
        {post.readingMinutes} min read
      </span>
    </p>
  );
}
