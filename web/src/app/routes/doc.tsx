import { useParams } from "react-router";
import { findDocPage } from "@/content/docs";
import { DocPage } from "@/features/docs/components/doc-page";
import NotFoundRoute from "./not-found";

export default function DocRoute() {
  const { slug } = useParams();
  const page = findDocPage(slug);
  if (!page) return <NotFoundRoute embedded />;
  return <DocPage key={page.slug} page={page} />;
}
