import { AlertCircleIcon, type LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/** What QueryState reads of a query: TanStack's query and infinite-query results both fit. */
export type QueryLike<T, E = unknown> = {
  data: T | undefined;
  isPending: boolean;
  isError: boolean;
  error?: E | null;
  refetch: () => unknown;
};

/**
 * How an error is laid out: a row with the button at the end ("inline"), the same row boxed
 * ("banner", above content or alone on a page), a centred column ("centered", in an empty
 * list) or a dashed panel ("panel", in place of a whole page section).
 */
export type QueryErrorLayout = "inline" | "banner" | "centered" | "panel";

const ERROR_LAYOUTS: Record<QueryErrorLayout, string> = {
  inline: "flex flex-wrap items-center justify-between gap-3",
  banner: "flex flex-wrap items-center justify-between gap-3 rounded-lg border border-destructive/40 bg-destructive/5 px-4 py-3",
  centered: "flex flex-col items-center gap-3 py-8 text-center",
  panel: "flex flex-col items-center gap-3 rounded-xl border border-dashed bg-card/50 px-6 py-10 text-center",
};

type QueryLoadingProps = {
  /** Said to screen readers while loading, and names the busy region ("Loading price alerts"). */
  label: string;
  /** Shows the label as text above the placeholder too. */
  showLabel?: boolean;
  className?: string;
  children: ReactNode;
};

/** A loading placeholder: a busy status region with the skeleton in it. */
export function QueryLoading({ label, showLabel = false, className, children }: QueryLoadingProps) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className={cn("grid gap-3", className)}>
      {showLabel ? <p className="text-sm text-muted-foreground">{label}</p> : <span className="sr-only">{label}</span>}
      {children}
    </div>
  );
}

type QueryErrorProps = {
  /** The failure, in the page's fixed wording ("Failed to fetch sessions"). */
  title: ReactNode;
  /** A second line under the title (the server's reason, or what to do). */
  detail?: ReactNode;
  onRetry: () => void;
  layout?: QueryErrorLayout;
  /** The panel's icon. */
  icon?: LucideIcon;
  className?: string;
};

/** An alert that something could not be loaded, with "Try again". */
export function QueryError({ title, detail, onRetry, layout = "inline", icon: Icon = AlertCircleIcon, className }: QueryErrorProps) {
  const panel = layout === "panel";
  return (
    <div role="alert" className={cn("text-sm", ERROR_LAYOUTS[layout], className)}>
      {panel ? (
        <div className="flex size-11 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <Icon className="size-5" aria-hidden />
        </div>
      ) : null}
      <div className="grid gap-1">
        <p className={cn("font-medium", panel ? "text-base font-semibold" : "inline-flex items-center gap-2 text-destructive-strong")}>
          {panel ? null : <Icon className="size-4 shrink-0" aria-hidden />}
          {title}
        </p>
        {detail ? <p className="text-muted-foreground">{detail}</p> : null}
      </div>
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

/**
 * What a failed refetch does to data already on screen: the error replaces it ("hide", the
 * default), the data stays and the error shows only when there is nothing to show ("show"),
 * or the data stays under the error ("show-with-error").
 */
export type StaleData = "hide" | "show" | "show-with-error";

type QueryStateProps<T, E> = {
  query: QueryLike<T, E>;
  /** Said while loading; see QueryLoading. */
  loadingLabel: string;
  showLoadingLabel?: boolean;
  /** The placeholder shown while loading (SkeletonRows, or a layout of its own). */
  skeleton: ReactNode;
  skeletonClassName?: string;
  /** The error's title; a function gets the error (for the server's reason or status). */
  errorTitle: ReactNode | ((error: E) => ReactNode);
  errorDetail?: ReactNode | ((error: E) => ReactNode);
  errorLayout?: QueryErrorLayout;
  errorIcon?: LucideIcon;
  errorClassName?: string;
  staleData?: StaleData;
  /** Whether the answer has nothing to show; `empty` is shown then (without `empty`, the children are). */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
};

/**
 * A query's three states in one place: the skeleton while it loads, an alert with "Try again"
 * when it fails, the empty state when the answer has nothing in it, and otherwise the children
 * with the data.
 */
export function QueryState<T, E = unknown>({
  query,
  loadingLabel,
  showLoadingLabel,
  skeleton,
  skeletonClassName,
  errorTitle,
  errorDetail,
  errorLayout,
  errorIcon,
  errorClassName,
  staleData = "hide",
  isEmpty,
  empty,
  children,
}: QueryStateProps<T, E>) {
  if (query.isPending) {
    return (
      <QueryLoading label={loadingLabel} showLabel={showLoadingLabel} className={skeletonClassName}>
        {skeleton}
      </QueryLoading>
    );
  }
  const data = query.data;
  const nothing = data === undefined || (isEmpty?.(data) ?? false);
  const error = query.isError ? (
    <QueryError
      title={typeof errorTitle === "function" ? errorTitle(query.error as E) : errorTitle}
      detail={typeof errorDetail === "function" ? errorDetail(query.error as E) : errorDetail}
      layout={errorLayout}
      icon={errorIcon}
      className={errorClassName}
      onRetry={() => void query.refetch()}
    />
  ) : null;
  if (error && (staleData === "hide" || nothing)) return error;
  if (nothing && empty !== undefined) return empty;
  if (data === undefined) return null;
  const content = children(data);
  return staleData === "show-with-error" && error ? (
    <>
      {error}
      {content}
    </>
  ) : (
    content
  );
}
