import { InfoPage } from "@/components/info-page";
import { useOpenApi } from "@/features/api-reference/api/get-openapi";
import { DocumentationPage } from "@/features/docs/components/documentation-page";
import { usePageMeta } from "@/lib/page-meta";

export default function DocumentationRoute() {
  usePageMeta(
    "Documentation",
    "Quick-start guides for account setup, trading signals, portfolio setup and the AI assistant, the platform guide, API endpoints and code samples.",
  );
  const { data, isError } = useOpenApi();
  const endpoints = isError
    ? []
    : data?.endpoints.map((e) => ({
        method: e.method,
        path: e.path,
        summary: e.summary,
        href: `/api?endpoint=${encodeURIComponent(e.id)}`,
      }));
  return (
    <InfoPage
      eyebrow="Documentation"
      title="Documentation"
      description="Guides to the dashboard, signals, portfolio tools and the public API."
      width="wide"
    >
      <DocumentationPage endpoints={endpoints} />
    </InfoPage>
  );
}
