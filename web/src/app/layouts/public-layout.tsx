import { Suspense, useEffect } from "react";
import { Outlet, useLocation, useNavigationType } from "react-router";
import { Spinner } from "@/components/spinner";
import { useUser } from "@/features/auth/api/get-me";
import { SiteFooter } from "@/features/marketing/components/site-footer";
import { SiteHeader } from "@/features/marketing/components/site-header";

/**
 * Scrolls like a multi-page site: to the top on a new page, to the element a `#hash` names
 * (waiting briefly for lazy content to render it), and leaves back/forward alone.
 */
function useScrollOnNavigate() {
  const { pathname, hash, key } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType === "POP" && !hash) return;
    if (!hash) {
      window.scrollTo(0, 0);
      return;
    }
    const id = decodeURIComponent(hash.slice(1));
    let frame = 0;
    let tries = 0;
    const seek = () => {
      const target = document.getElementById(id);
      if (target) {
        target.scrollIntoView({ block: "start" });
        return;
      }
      if (++tries < 120) frame = requestAnimationFrame(seek);
    };
    seek();
    return () => cancelAnimationFrame(frame);
  }, [pathname, hash, key, navigationType]);
}

/** Marketing and information pages: public top bar and footer, for visitors and signed-in users. */
export function PublicLayout() {
  const { isAuthenticated } = useUser();
  useScrollOnNavigate();
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-primary px-4 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <SiteHeader signedIn={isAuthenticated} />
      <main id="main" className="flex-1">
        <Suspense
          fallback={
            <div className="flex min-h-[60vh] items-center justify-center">
              <Spinner />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </main>
      <SiteFooter />
    </div>
  );
}
