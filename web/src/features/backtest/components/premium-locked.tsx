import { LockIcon } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";

/**
 * A Premium option of the backtest shown to Free and Pro, locked: what it does, with the way to
 * the plans. `testId` names the section (and its heading's id).
 */
export function PremiumLocked({ title, testId, children }: { title: string; testId: string; children: React.ReactNode }) {
  return (
    <section
      aria-labelledby={testId}
      className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-dashed p-4"
      data-testid={testId}
    >
      <div className="grid max-w-prose gap-1">
        <h3 id={testId} className="inline-flex items-center gap-2 text-sm font-semibold">
          <LockIcon className="size-4 text-muted-foreground" aria-hidden />
          {title}
          <Badge variant="soft">Premium</Badge>
        </h3>
        <p className="text-sm text-muted-foreground">{children}</p>
      </div>
      <Button asChild variant="outline" size="sm">
        <Link to="/pricing">Upgrade to Premium</Link>
      </Button>
    </section>
  );
}
