import type * as React from "react";
import { cn } from "@/lib/utils";

export function Skeleton({ className, ...props }: React.ComponentProps<"div">) {
  return <div data-slot="skeleton" className={cn("animate-pulse rounded-md bg-muted", className)} {...props} />;
}

/** `count` skeletons alike, for a list's placeholder rows. */
export function SkeletonRows({ count, className }: { count: number; className?: string }) {
  return Array.from({ length: count }, (_, i) => <Skeleton key={i} className={className} />);
}
