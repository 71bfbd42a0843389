import { ArrowLeftIcon } from "lucide-react";
import { Link } from "react-router";
import { LogoMark } from "@/components/logo";
import { Button } from "@/components/ui/button";
import { usePageMeta } from "@/lib/page-meta";
import { cn } from "@/lib/utils";

/**
 * The not-found screen: for unknown paths when signed in, and for unknown slugs
 * (/blog/…, /help/…, /docs/…) in either state. `embedded` fits it between the public
 * header and footer.
 */
export function NotFoundScreen({ homeLabel, embedded = false }: { homeLabel: string; embedded?: boolean }) {
  usePageMeta("Page Not Found", "The page you are looking for does not exist or has moved.");
  return (
    <div
      data-testid="not-found"
      className={cn(
        "flex flex-col items-center justify-center bg-background px-6 text-center",
        embedded ? "min-h-[60vh] py-16" : "min-h-dvh",
      )}
    >
      <LogoMark className="size-10" />
      <h1 className="mt-8 text-3xl font-semibold tracking-tight">404 Page Not Found</h1>
      <p className="mt-3 max-w-md text-muted-foreground">The page you are looking for does not exist or has moved.</p>
      <Button asChild className="mt-8">
        <Link to="/">
          <ArrowLeftIcon />
          {homeLabel}
        </Link>
      </Button>
    </div>
  );
}
