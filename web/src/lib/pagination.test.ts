import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { pageNumbers, pageRange, usePagination } from "./pagination";

describe("pageNumbers", () => {
  it("lists every page when there are few", () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(2, 3)).toEqual([1, 2, 3]);
  });

  it("shows first, last and pages within 1 of the current one, with ellipses", () => {
    expect(pageNumbers(1, 10)).toEqual([1, 2, "gap-end", 10]);
    expect(pageNumbers(5, 10)).toEqual([1, "gap-start", 4, 5, 6, "gap-end", 10]);
    expect(pageNumbers(10, 10)).toEqual([1, "gap-start", 9, 10]);
    expect(pageNumbers(3, 10)).toEqual([1, 2, 3, 4, "gap-end", 10]);
    expect(pageNumbers(8, 10)).toEqual([1, "gap-start", 7, 8, 9, 10]);
  });
});

describe("pageRange", () => {
  it("gives the positions shown on a page", () => {
    expect(pageRange(1, 4, 9)).toEqual({ from: 1, to: 4 });
    expect(pageRange(3, 4, 9)).toEqual({ from: 9, to: 9 });
    expect(pageRange(1, 4, 0)).toEqual({ from: 0, to: 0 });
  });
});

describe("usePagination", () => {
  it("goes back to page 1 when the number of results changes", () => {
    const { result, rerender } = renderHook(({ total }) => usePagination(total, 4), { initialProps: { total: 20 } });
    act(() => result.current.setPage(3));
    expect(result.current.page).toBe(3);
    rerender({ total: 20 });
    expect(result.current.page).toBe(3);
    rerender({ total: 21 });
    expect(result.current.page).toBe(1);
  });

  it("goes back to page 1 when the reset key changes, and never past the last page", () => {
    const { result, rerender } = renderHook(({ key }) => usePagination(20, 4, key), { initialProps: { key: "a" } });
    act(() => result.current.setPage(5));
    expect(result.current).toMatchObject({ page: 5, from: 17, to: 20 });
    rerender({ key: "b" });
    expect(result.current.page).toBe(1);
    act(() => result.current.setPage(99));
    expect(result.current.page).toBe(5);
    expect(result.current.slice(Array.from({ length: 20 }, (_, i) => i))).toEqual([16, 17, 18, 19]);
  });

  it("keeps the page when more items are appended (the append key moves as the list grows)", () => {
    const { result, rerender } = renderHook(({ total, pages }) => usePagination(total, 4, "filters", pages), {
      initialProps: { total: 50, pages: 1 },
    });
    act(() => result.current.setPage(5));
    rerender({ total: 100, pages: 2 });
    expect(result.current.page).toBe(5);
    expect(result.current.pageOf(50)).toBe(13);
    // The same pages with a different count (a live update) still go back to page 1.
    rerender({ total: 99, pages: 2 });
    expect(result.current.page).toBe(1);
    act(() => result.current.setPage(3));
    // Fewer pages (the list was reloaded) go back to page 1 too.
    rerender({ total: 50, pages: 1 });
    expect(result.current.page).toBe(1);
  });
});
