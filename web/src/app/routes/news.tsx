import { NEWS_DESCRIPTION, NEWS_TITLE, NewsPage } from "@/features/news/components/news-page";
import { usePageMeta } from "@/lib/page-meta";

export default function NewsRoute() {
  usePageMeta(NEWS_TITLE, NEWS_DESCRIPTION);
  return <NewsPage />;
}
