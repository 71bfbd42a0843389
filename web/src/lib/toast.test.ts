import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { dismissToast, TOAST_LIMIT, toast, useToasts } from "./toast";

describe("toast store", () => {
  it("keeps one toast visible at a time, newest first", () => {
    const { result } = renderHook(() => useToasts());
    act(() => {
      toast({ title: "First" });
      toast({ title: "Second", variant: "destructive" });
    });
    expect(TOAST_LIMIT).toBe(1);
    expect(result.current).toHaveLength(1);
    expect(result.current[0]).toMatchObject({ title: "Second", variant: "destructive", open: true });
  });

  it("marks a dismissed toast closed", () => {
    const { result } = renderHook(() => useToasts());
    act(() => {
      const { id } = toast({ title: "Saved" });
      dismissToast(id);
    });
    expect(result.current[0]).toMatchObject({ title: "Saved", open: false });
  });
});
