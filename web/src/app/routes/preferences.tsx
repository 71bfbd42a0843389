import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { useUser } from "@/features/auth/api/get-me";
import { formatCurrency, NO_VALUE, riskToleranceLabel } from "@/lib/format";
import { usePageMeta } from "@/lib/page-meta";

export default function PreferencesRoute() {
  usePageMeta("Investment Preferences", "Capital, risk and strategies used to match signals to your account.");
  const { user } = useUser();
  if (!user) return null;
  const strategies = user.preferredStrategies
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const sized = user.maxPositionSize > 0 && user.investmentCapital > 0;
  const rows = [
    { label: "Investment capital", value: formatCurrency(user.investmentCapital) },
    { label: "Max position size", value: formatCurrency(user.maxPositionSize) },
    { label: "Risk tolerance", value: riskToleranceLabel(user.riskTolerance) },
    { label: "Preferred strategies", value: strategies.length ? strategies.join(", ") : "None selected" },
  ];
  const allocation = [
    { label: "Maximum positions", value: sized ? String(Math.floor(user.investmentCapital / user.maxPositionSize)) : NO_VALUE },
    {
      label: "Risk per trade",
      value: sized ? `${((user.maxPositionSize / user.investmentCapital) * 100).toFixed(1)}%` : NO_VALUE,
    },
    { label: "Strategies", value: String(strategies.length) },
  ];

  return (
    <div className="grid gap-6">
      <PageHeader
        title="Investment Preferences"
        description="Capital, risk and strategies used to match signals to your account."
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader className="border-b pb-4">
            <CardTitle>Current preferences</CardTitle>
            <CardDescription>The values stored with your account.</CardDescription>
          </CardHeader>
          <CardContent className="pt-2">
            <dl className="divide-y">
              {rows.map((row) => (
                <div key={row.label} className="flex items-center justify-between gap-4 py-3 text-sm">
                  <dt className="text-muted-foreground">{row.label}</dt>
                  <dd className="text-right font-medium tabular">{row.value}</dd>
                </div>
              ))}
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="border-b pb-4">
            <CardTitle>Allocation summary</CardTitle>
            <CardDescription>Derived from capital and position size.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 pt-5">
            {allocation.map((item) => (
              <div key={item.label}>
                <p className="text-xs text-muted-foreground">{item.label}</p>
                <p className="mt-0.5 text-xl font-semibold tabular">{item.value}</p>
              </div>
            ))}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
