import { Markdown } from "@/components/markdown";
import { Button } from "@/components/ui/button";
import { Skeleton } from "@/components/ui/skeleton";
import { useContentBody } from "@/lib/use-content-body";

/** A content page's body: loaded from its own chunk, then rendered as Markdown. */
export function MarkdownBody({ id, load, className }: { id: string; load: () => Promise<string>; className?: string }) {
  const { data, isPending, isError, refetch } = useContentBody(id, load);
  if (isPending) {
    return (
      <div className="grid gap-3" aria-busy="true" aria-label="Loading">
        {Array.from({ length: 8 }, (_, i) => (
          <Skeleton key={i} className={i % 4 === 3 ? "h-4 w-2/3" : "h-4 w-full"} />
        ))}
      </div>
    );
  }
  if (isError) {
    return (
      <div className="rounded-xl border border-dashed p-6 text-center">
        <p className="font-medium">This page could not be loaded.</p>
        <p className="mt-1 text-sm text-muted-foreground">Check your connection and try again.</p>
        <Button variant="outline" className="mt-4" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  return <Markdown source={data} className={className} />;
}
