import type * as React from "react";
import { cn } from "@/lib/utils";

/**
 * A table that scrolls sideways inside its card on a narrow screen instead of widening the
 * page. The scrolling region is focusable and named, so it can be scrolled from the keyboard.
 */
export function ScrollTable({
  label,
  caption,
  minWidth,
  children,
}: {
  label: string;
  caption: React.ReactNode;
  /** The width below which the table scrolls (a Tailwind min-w class). */
  minWidth: string;
  children: React.ReactNode;
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="-mx-5 overflow-x-auto px-5 outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      <table className={cn("w-full text-left text-sm", minWidth)}>
        <caption className="pb-3 text-left text-xs text-muted-foreground">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export const TH = "py-2 pr-3 text-xs font-medium text-muted-foreground";
export const TD = "py-2 pr-3 tabular";
