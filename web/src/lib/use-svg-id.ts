import { useId } from "react";

/** A unique id safe inside SVG `url(#…)` references (React's ids contain punctuation). */
export function useSvgId(): string {
  return `svg${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
}
