import { useEffect, useRef, useState } from "react";

/**
 * The rendered width of an element, kept current with a ResizeObserver (charts draw at
 * their real pixel size, so their text stays readable on a phone). `fallback` until it is
 * measured, and where ResizeObserver does not exist (tests).
 */
export function useElementWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const measure = (next: number) => {
      if (next > 0) setWidth(Math.round(next));
    };
    measure(element.getBoundingClientRect().width);
    const observer = new ResizeObserver((entries) => {
      for (const entry of entries) measure(entry.contentRect.width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
