import { ArrowLeftIcon, CandlestickChartIcon, FlaskConicalIcon, WalletCardsIcon } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { LogoMark } from "@/components/logo";

const POINTS = [
  {
    Icon: CandlestickChartIcon,
    title: "Signals with the full contract",
    text: "Every CALL, PUT and straddle comes with strike, expiry, a strength score and the strategy behind it.",
  },
  {
    Icon: WalletCardsIcon,
    title: "One portfolio view",
    text: "Positions opened from signals and contracts you enter yourself, tracked side by side.",
  },
  {
    Icon: FlaskConicalIcon,
    title: "Backtests you can check",
    text: "Historical results are always labelled as backtested, never presented as live performance.",
  },
];

/** Split layout for sign-in and sign-up: a product panel on large screens, the form on the right. */
export function AuthLayout({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
  footer: React.ReactNode;
}) {
  return (
    <div className="grid min-h-dvh lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <aside className="relative hidden overflow-hidden border-r bg-sidebar lg:flex lg:flex-col lg:justify-between lg:p-12">
        <div
          aria-hidden
          className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_20%_0%,color-mix(in_oklab,var(--color-primary)_14%,transparent),transparent_55%)]"
        />
        <Link to="/" className="relative inline-flex items-center gap-2 text-lg font-semibold tracking-tight">
          <LogoMark />
          Strikeline
        </Link>
        <div className="relative max-w-md">
          <h2 className="text-3xl leading-tight font-semibold tracking-tight">
            Options signals, portfolio tracking and backtests in one place.
          </h2>
          <ul className="mt-10 space-y-6">
            {POINTS.map(({ Icon, title: pointTitle, text }) => (
              <li key={pointTitle} className="flex gap-4">
                <div className="flex size-9 shrink-0 items-center justify-center rounded-lg border bg-card text-primary shadow-xs">
                  <Icon className="size-[1.1rem]" aria-hidden />
                </div>
                <div>
                  <p className="text-sm font-semibold">{pointTitle}</p>
                  <p className="mt-0.5 text-sm text-muted-foreground">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-xs text-muted-foreground">
          Options involve risk and are not suitable for every investor. Nothing on Strikeline is financial advice.
        </p>
      </aside>

      <main className="flex flex-col px-5 py-6 sm:px-10">
        <Link
          to="/"
          className="inline-flex w-fit items-center gap-1.5 rounded-md text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <ArrowLeftIcon className="size-4" aria-hidden />
          Back to Home
        </Link>
        <div className="flex flex-1 items-center justify-center py-10">
          <div className="w-full max-w-[400px]">
            <Link to="/" className="mb-8 inline-flex items-center gap-2 text-lg font-semibold tracking-tight lg:hidden">
              <LogoMark />
              Strikeline
            </Link>
            <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
            <p className="mt-1.5 text-sm text-muted-foreground">{description}</p>
            <div className="mt-8">{children}</div>
            <div className="mt-6 text-center text-sm text-muted-foreground">{footer}</div>
          </div>
        </div>
      </main>
    </div>
  );
}
