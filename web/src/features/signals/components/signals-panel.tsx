import { SignalIcon } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";

/** The signals list. With no signals published it shows the spec's empty state. */
export function SignalsPanel({ title = "Live Signals" }: { title?: string }) {
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4 border-b pb-4">
        <div className="grid gap-1">
          <CardTitle>{title}</CardTitle>
          <CardDescription>CALL, PUT and straddle signals with strike, expiry and confidence.</CardDescription>
        </div>
      </CardHeader>
      <CardContent className="pt-5">
        <EmptyState
          icon={SignalIcon}
          title="No signals found"
          description="There are no signals to show right now. New signals are listed here as soon as they are published."
          className="border-none bg-transparent py-12"
        />
      </CardContent>
    </Card>
  );
}
