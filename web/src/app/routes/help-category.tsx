import { useParams } from "react-router";
import { findHelpCategory } from "@/content/help";
import { HelpCategoryPage } from "@/features/help/components/help-category-page";
import NotFoundRoute from "./not-found";

export default function HelpCategoryRoute() {
  const { category: slug } = useParams();
  const category = findHelpCategory(slug);
  if (!category) return <NotFoundRoute embedded />;
  return <HelpCategoryPage key={category.slug} category={category} />;
}
