import { useParams } from "react-router";
import { findPost } from "@/content/blog";
import { BlogArticle } from "@/features/blog/components/blog-article";
import NotFoundRoute from "./not-found";

export default function BlogArticleRoute() {
  const { slug } = useParams();
  const post = findPost(slug);
  if (!post) return <NotFoundRoute embedded />;
  return <BlogArticle key={post.slug} post={post} />;
}
