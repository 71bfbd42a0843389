import { ChevronLeftIcon, ChevronRightIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { type Pager, pageNumbers } from "@/lib/pagination";
import { cn } from "@/lib/utils";

type PaginationProps = {
  /** The page state (usePagination): the controls read it and move it. */
  pager: Pick<Pager, "page" | "pageCount" | "setPage" | "from" | "to" | "total">;
  /** What is counted: "signals" → "Showing 1 to 4 of 9 signals". */
  noun: string;
  /** Names the navigation landmark ("Signals pages"). */
  label: string;
  className?: string;
};

/**
 * "Showing X to Y of Z …", Previous and Next, and numbered pages (first, last, those
 * within 1 of the current page, ellipses between). The buttons appear with a second page.
 */
export function Pagination({ pager, noun, label, className }: PaginationProps) {
  const { page, pageCount, setPage: onPageChange, from, to, total } = pager;
  if (total === 0) return null;
  return (
    <div className={cn("flex flex-col items-center gap-3 sm:flex-row sm:justify-between", className)}>
      <p className="text-sm text-muted-foreground tabular" aria-live="polite">
        Showing {from} to {to} of {total} {noun}
      </p>
      {pageCount > 1 ? (
        <nav aria-label={label} className="flex flex-wrap items-center justify-center gap-1">
          <Button variant="outline" size="sm" onClick={() => onPageChange(page - 1)} disabled={page <= 1}>
            <ChevronLeftIcon aria-hidden />
            Previous
          </Button>
          {pageNumbers(page, pageCount).map((item) =>
            typeof item === "number" ? (
              <Button
                key={item}
                variant={item === page ? "default" : "ghost"}
                size="sm"
                className="min-w-8 px-2 tabular"
                aria-label={`Page ${item}`}
                aria-current={item === page ? "page" : undefined}
                onClick={() => onPageChange(item)}
              >
                {item}
              </Button>
            ) : (
              <span key={item} aria-hidden data-testid="page-gap" className="px-1 text-sm text-muted-foreground">
                …
              </span>
            ),
          )}
          <Button variant="outline" size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= pageCount}>
            Next
            <ChevronRightIcon aria-hidden />
          </Button>
        </nav>
      ) : null}
    </div>
  );
}
