import { useParams } from "react-router";
import { findHelpArticle, findHelpCategory } from "@/content/help";
import { HelpArticlePage } from "@/features/help/components/help-article-page";
import NotFoundRoute from "./not-found";

export default function HelpArticleRoute() {
  const { category: categorySlug, article: articleSlug } = useParams();
  const category = findHelpCategory(categorySlug);
  const article = findHelpArticle(categorySlug, articleSlug);
  if (!category || !article) return <NotFoundRoute embedded />;
  return <HelpArticlePage key={`${category.slug}/${article.slug}`} article={article} category={category} />;
}
