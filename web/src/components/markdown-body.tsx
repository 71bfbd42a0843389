import { Markdown } from "@/components/markdown";
import { QueryState } from "@/components/query-state";
import { Skeleton } from "@/components/ui/skeleton";
import { useContentBody } from "@/lib/use-content-body";

/** Eight lines of placeholder text, every fourth one short. */
function TextSkeleton() {
  return Array.from({ length: 8 }, (_, i) => <Skeleton key={i} className={i % 4 === 3 ? "h-4 w-2/3" : "h-4 w-full"} />);
}

/** A content page's body: loaded from its own chunk, then rendered as Markdown. */
export function MarkdownBody({ id, load, className }: { id: string; load: () => Promise<string>; className?: string }) {
  const body = useContentBody(id, load);
  return (
    <QueryState
      query={body}
      loadingLabel="Loading"
      skeleton={<TextSkeleton />}
      errorTitle="This page could not be loaded."
      errorDetail="Check your connection and try again."
      errorLayout="panel"
    >
      {(source) => <Markdown source={source} className={className} />}
    </QueryState>
  );
}
