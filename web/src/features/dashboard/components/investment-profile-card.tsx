import { SlidersHorizontalIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import type { User } from "@/lib/api/models";
import { formatCurrency, riskToleranceLabel } from "@/lib/format";

type Profile = Pick<User, "investmentCapital" | "maxPositionSize" | "riskTolerance" | "preferredStrategies">;

/** The user's investment preferences, which decide the signals the platform trades for them. */
export function InvestmentProfileCard({ profile }: { profile: Profile }) {
  const strategies = profile.preferredStrategies
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const rows = [
    { label: "Investment capital", value: formatCurrency(profile.investmentCapital) },
    { label: "Max position size", value: formatCurrency(profile.maxPositionSize) },
    { label: "Risk tolerance", value: riskToleranceLabel(profile.riskTolerance) },
  ];
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Investment Profile</CardTitle>
        <CardDescription>Used to match signals to your account.</CardDescription>
      </CardHeader>
      <CardContent className="pt-4">
        <dl className="divide-y">
          {rows.map((row) => (
            <div key={row.label} className="flex items-center justify-between gap-4 py-2.5 text-sm">
              <dt className="text-muted-foreground">{row.label}</dt>
              <dd className="font-medium tabular">{row.value}</dd>
            </div>
          ))}
          <div className="flex items-start justify-between gap-4 py-2.5 text-sm">
            <dt className="text-muted-foreground">Strategies</dt>
            <dd className="flex flex-wrap justify-end gap-1.5">
              {strategies.length > 0 ? (
                strategies.map((s) => (
                  <span key={s} className="rounded-md bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">
                    {s}
                  </span>
                ))
              ) : (
                <span className="font-medium">None selected</span>
              )}
            </dd>
          </div>
        </dl>
        <Button asChild variant="outline" className="mt-4 w-full">
          <Link to="/preferences">
            <SlidersHorizontalIcon />
            Edit preferences
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
