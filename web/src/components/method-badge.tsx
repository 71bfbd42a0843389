import { cn } from "@/lib/utils";

const METHOD_CLASS: Record<string, string> = {
  GET: "bg-positive/12 text-positive-strong",
  POST: "bg-primary/12 text-primary-strong",
  PUT: "bg-amber-500/15 text-amber-800 dark:text-amber-300",
  PATCH: "bg-amber-500/15 text-amber-800 dark:text-amber-300",
  DELETE: "bg-destructive/12 text-destructive-strong",
};

/** An HTTP method as a coloured label: GET, POST, … */
export function MethodBadge({ method, className }: { method: string; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex w-14 shrink-0 justify-center rounded px-1.5 py-0.5 font-mono text-xs font-semibold",
        METHOD_CLASS[method] ?? "bg-muted",
        className,
      )}
    >
      {method}
    </span>
  );
}
