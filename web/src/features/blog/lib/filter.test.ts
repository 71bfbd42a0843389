import { describe, expect, it } from "vitest";
import { BLOG_POSTS, findPost } from "@/content/blog";
import { filterPosts, relatedPosts } from "./filter";

const slugs = (posts: { slug: string }[]) => posts.map((p) => p.slug);

describe("blog filters", () => {
  it("keeps everything for All and no query", () => {
    expect(filterPosts(BLOG_POSTS, { query: "", category: "All" })).toHaveLength(BLOG_POSTS.length);
  });

  it("filters by category chip", () => {
    expect(slugs(filterPosts(BLOG_POSTS, { query: "", category: "Risk Management" }))).toEqual(["options-risk-management"]);
    expect(slugs(filterPosts(BLOG_POSTS, { query: "", category: "Education" })).sort()).toEqual([
      "first-options-portfolio",
      "options-greeks-guide",
    ]);
  });

  it("searches titles, tags and descriptions, best match first", () => {
    expect(slugs(filterPosts(BLOG_POSTS, { query: "greeks", category: "All" }))[0]).toBe("options-greeks-guide");
    expect(slugs(filterPosts(BLOG_POSTS, { query: "straddle breakeven", category: "All" }))).toContain("earnings-season-strategy");
    expect(filterPosts(BLOG_POSTS, { query: "bitcoin futures", category: "All" })).toEqual([]);
  });

  it("combines search and category", () => {
    expect(filterPosts(BLOG_POSTS, { query: "volatility", category: "Technical Analysis" }).map((p) => p.category)).toEqual(
      expect.arrayContaining(["Technical Analysis"]),
    );
    expect(filterPosts(BLOG_POSTS, { query: "greeks", category: "Strategy" })).toEqual([]);
  });

  it("suggests related posts from the same category first", () => {
    const post = findPost("options-greeks-guide")!;
    const related = relatedPosts(BLOG_POSTS, post);
    expect(related).toHaveLength(3);
    expect(related[0].slug).toBe("first-options-portfolio");
    expect(slugs(related)).not.toContain(post.slug);
  });
});
