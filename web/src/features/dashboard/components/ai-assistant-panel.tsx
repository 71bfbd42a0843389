import { BotIcon, SparklesIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";

/**
 * The AI Investment Assistant. Recommendations arrive with a later issue; until then the
 * panel shows the spec's upgrade line and empty state, and never invents a recommendation.
 */
export function AiAssistantPanel() {
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <div className="flex items-start justify-between gap-3">
          <div className="grid gap-1">
            <h2 className="text-base leading-tight font-semibold">AI Investment Assistant</h2>
            <CardDescription>Upgrade to Pro for AI-powered insights</CardDescription>
          </div>
          <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-primary/10 px-2.5 py-1 text-xs font-semibold text-primary-strong">
            <SparklesIcon className="size-3" aria-hidden />
            Pro Feature
          </span>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col items-center gap-3 pt-6 text-center">
        <div className="flex size-11 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <BotIcon className="size-5" aria-hidden />
        </div>
        <p className="text-sm font-medium">No AI recommendations available</p>
        <Button asChild size="sm" variant="outline">
          <Link to="/pricing">Upgrade to Pro</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
