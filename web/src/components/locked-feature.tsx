import { LockIcon } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";

type LockedFeatureProps = {
  /** What is locked, or what includes it ("Included in Pro and Premium"). */
  title: string;
  /** The cheapest plan that includes it: the badge and the button say it. */
  plan: "Pro" | "Premium";
  /** Names the section for tests, and its heading's id. */
  testId: string;
  /** The heading's level where the section stands (a page's own section: h2). */
  heading?: "h2" | "h3";
  /** What the feature does, in a sentence or two. */
  children: React.ReactNode;
};

/**
 * A feature the user's plan does not include, shown locked: what it does, with the way to the
 * plans. The server's entitlement check decides; this only shows its answer.
 */
export function LockedFeature({ title, plan, testId, heading: Heading = "h3", children }: LockedFeatureProps) {
  return (
    <section
      aria-labelledby={testId}
      className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-dashed p-4"
      data-testid={testId}
    >
      <div className="grid max-w-prose gap-1">
        <Heading id={testId} className="inline-flex items-center gap-2 text-sm font-semibold">
          <LockIcon className="size-4 text-muted-foreground" aria-hidden />
          {title}
          <Badge variant="soft">{plan}</Badge>
        </Heading>
        <p className="text-sm text-muted-foreground">{children}</p>
      </div>
      <Button asChild variant="outline" size="sm">
        <Link to="/pricing">Upgrade to {plan}</Link>
      </Button>
    </section>
  );
}
