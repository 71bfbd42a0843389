import type { PublicStats } from "@/lib/api/models";

const count = new Intl.NumberFormat("en-US");

/** "5 minutes", "1 minute", "30 seconds", "2 hours". */
export function formatInterval(seconds: number): string {
  const unit = (n: number, word: string) => `${count.format(n)} ${word}${n === 1 ? "" : "s"}`;
  if (seconds >= 3600 && seconds % 3600 === 0) return unit(seconds / 3600, "hour");
  if (seconds >= 60 && seconds % 60 === 0) return unit(seconds / 60, "minute");
  if (seconds >= 60) return unit(Math.round(seconds / 6) / 10, "minute");
  return unit(seconds, "second");
}

/** "every 5 minutes"; "every minute" for exactly one. */
export function every(seconds: number): string {
  const text = formatInterval(seconds);
  return text.startsWith("1 ") ? `every ${text.slice(2)}` : `every ${text}`;
}

/** The data-freshness sentence, from the server's configured schedule. */
export function freshnessSentence(stats: Pick<PublicStats, "signalRefreshSeconds" | "priceRefreshSeconds">): string {
  return `Signals refresh ${every(stats.signalRefreshSeconds)} and prices ${every(stats.priceRefreshSeconds)} during US market hours.`;
}

/** One live figure: a value, or a sentence saying why there is none yet. */
export type Figure = {
  id: "users" | "signals" | "volume" | "win-rate" | "freshness";
  label: string;
  /** The number as shown, or null when there is too little data to show one. */
  value: string | null;
  /** Shown instead of the value when it is null. */
  empty: string;
  /** The period or basis of the figure. */
  detail: string;
};

const compactDollars = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  notation: "compact",
  maximumFractionDigits: 1,
});

/** The figures the public pages show, each labelled with its period or basis. */
export function describeStats(stats: PublicStats): Figure[] {
  const { signalsIssued, winRate, volumeAnalysed } = stats;
  return [
    {
      id: "users",
      label: "Registered traders",
      value: count.format(stats.registeredUsers),
      empty: "",
      detail: "Accounts created on Strikeline to date",
    },
    {
      id: "signals",
      label: "Signals issued",
      value: signalsIssued.count > 0 ? count.format(signalsIssued.count) : null,
      empty: "No signals issued yet",
      detail:
        signalsIssued.count > 0 && stats.symbolsCovered > 0
          ? `Last ${signalsIssued.periodDays} days, across ${count.format(stats.symbolsCovered)} symbols`
          : `Last ${signalsIssued.periodDays} days`,
    },
    {
      id: "volume",
      label: "Volume analysed",
      value: volumeAnalysed.signals > 0 ? compactDollars.format(volumeAnalysed.notional) : null,
      empty: "No live signals yet",
      detail:
        volumeAnalysed.signals > 0
          ? `Notional of one contract per live signal, ${count.format(volumeAnalysed.signals)} signals in the last ${volumeAnalysed.periodDays} days`
          : `Last ${volumeAnalysed.periodDays} days`,
    },
    {
      id: "win-rate",
      label: "Win rate",
      value: winRate.value === null || winRate.value === undefined ? null : `${winRate.value.toFixed(1)}%`,
      empty: "Not enough closed signals yet",
      detail:
        winRate.value === null || winRate.value === undefined
          ? `Shown once ${winRate.minimumSample} signals have closed in ${winRate.periodDays} days (${count.format(winRate.closedSignals)} so far)`
          : `Of ${count.format(winRate.closedSignals)} signals closed in the last ${winRate.periodDays} days`,
    },
    {
      id: "freshness",
      label: "Signal refresh",
      value: every(stats.signalRefreshSeconds).replace(/^every /, "Every "),
      empty: "",
      detail: `Prices refresh ${every(stats.priceRefreshSeconds)} during US market hours`,
    },
  ];
}

/** "$470/year" or "$49/month"; "$0" for Free. */
export function planPrice(plan: { monthlyPrice: number; yearlyPrice: number }, billing: "monthly" | "yearly") {
  const amount = billing === "yearly" ? plan.yearlyPrice : plan.monthlyPrice;
  return { amount: `$${count.format(amount)}`, per: amount === 0 ? "forever" : billing === "yearly" ? "/year" : "/month" };
}

/** "5 signals per day", "Unlimited signals". */
export function signalsPerDay(value: number | null | undefined): string {
  return value === null || value === undefined ? "Unlimited signals" : `${count.format(value)} signals per day`;
}

export function formatCount(value: number): string {
  return count.format(value);
}
