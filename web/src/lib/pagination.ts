import { useState } from "react";

/** A gap in a page list, shown as an ellipsis. */
export type PageGap = "gap-start" | "gap-end";

/**
 * The page buttons to show: the first and last page and those within 1 of the current
 * one, with a gap (ellipsis) wherever pages are left out.
 */
export function pageNumbers(current: number, pageCount: number): (number | PageGap)[] {
  const items: (number | PageGap)[] = [];
  let previous = 0;
  for (let page = 1; page <= pageCount; page++) {
    if (page !== 1 && page !== pageCount && Math.abs(page - current) > 1) continue;
    if (page - previous > 1) items.push(page < current ? "gap-start" : "gap-end");
    items.push(page);
    previous = page;
  }
  return items;
}

/** The 1-based positions of the first and last item on `page` ("Showing X to Y of Z"). */
export function pageRange(page: number, pageSize: number, total: number): { from: number; to: number } {
  if (total === 0) return { from: 0, to: 0 };
  return { from: (page - 1) * pageSize + 1, to: Math.min(page * pageSize, total) };
}

/**
 * Page state for a list of `total` items. Goes back to page 1 whenever the number of
 * results changes or `resetKey` changes (new filters), and never
 * points past the last page. The exception is `appendKey`: when it changes as the list grows
 * (older items were appended after those loaded, e.g. one more page of a paged answer), the
 * current page is kept, since what it shows has not moved.
 */
export function usePagination(total: number, pageSize: number, resetKey: unknown = null, appendKey: unknown = null) {
  const [page, setPage] = useState(1);
  const [seen, setSeen] = useState({ total, resetKey, appendKey });
  const sameReset = Object.is(seen.resetKey, resetKey);
  const sameAppend = Object.is(seen.appendKey, appendKey);
  if (seen.total !== total || !sameReset || !sameAppend) {
    setSeen({ total, resetKey, appendKey });
    const appended = sameReset && !sameAppend && total >= seen.total;
    if (!appended && (seen.total !== total || !sameReset)) setPage(1);
  }
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  const start = (current - 1) * pageSize;
  return {
    page: current,
    pageCount,
    total,
    setPage,
    /** The page that shows the item at 0-based `index`. */
    pageOf: (index: number) => Math.max(1, Math.floor(index / pageSize) + 1),
    slice: <T>(items: readonly T[]): T[] => items.slice(start, start + pageSize),
    ...pageRange(current, pageSize, total),
  };
}

/** A list's page state, as usePagination gives it. */
export type Pager = ReturnType<typeof usePagination>;
