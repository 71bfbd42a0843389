import { type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import { Spinner } from "@/components/spinner";

/**
 * Renders `children` (typically a lazy component) only once the spot comes within
 * `rootMargin` of the viewport, so code below the fold is not part of the first load.
 * Without IntersectionObserver (tests, old browsers) it renders at once.
 */
export function DeferredSection({
  children,
  minHeight,
  rootMargin = "800px 0px",
}: {
  children: ReactNode;
  minHeight: string;
  rootMargin?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(() => typeof IntersectionObserver === "undefined");

  useEffect(() => {
    const element = ref.current;
    if (visible || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible, rootMargin]);

  const placeholder = (
    <div ref={ref} style={{ minHeight }} className="flex items-center justify-center" aria-busy={visible || undefined}>
      {visible ? <Spinner /> : null}
    </div>
  );
  if (!visible) return placeholder;
  return <Suspense fallback={placeholder}>{children}</Suspense>;
}
