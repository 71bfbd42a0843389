import type { BlogCategory, BlogPost } from "@/content/blog";
import { searchItems } from "@/lib/search";

export type BlogFilter = { query: string; category: BlogCategory | "All" };

/** The posts in `category` ("All" for every one) matching `query`, best match first. */
export function filterPosts(posts: readonly BlogPost[], { query, category }: BlogFilter): BlogPost[] {
  const inCategory = category === "All" ? posts : posts.filter((post) => post.category === category);
  return searchItems(inCategory, query, (post) => [
    { text: post.title, weight: 4 },
    { text: post.tags.join(" "), weight: 3 },
    { text: post.description, weight: 2 },
    { text: `${post.category} ${post.headings.join(" ")}`, weight: 2 },
    { text: post.author, weight: 1 },
  ]);
}

/** Up to `limit` other posts, same category first, then the newest. */
export function relatedPosts(posts: readonly BlogPost[], post: BlogPost, limit = 3): BlogPost[] {
  const others = posts.filter((p) => p.slug !== post.slug);
  const same = others.filter((p) => p.category === post.category);
  const rest = others.filter((p) => p.category !== post.category);
  return [...same, ...rest].slice(0, limit);
}
