import {
  ArrowRightIcon,
  BookOpenIcon,
  BriefcaseBusinessIcon,
  CandlestickChartIcon,
  CheckCircle2Icon,
  FlaskConicalIcon,
  LifeBuoyIcon,
  MailIcon,
  NewspaperIcon,
} from "lucide-react";
import { startTransition, useEffect, useState } from "react";
import type * as React from "react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { COMPANY } from "@/content/company";
import { usePageMeta } from "@/lib/page-meta";
import { usePlans } from "../api/get-plans";
import { PlanCards } from "./plan-cards";
import { PlatformFigures } from "./platform-figures";

const FEATURES = [
  {
    Icon: CandlestickChartIcon,
    title: "Automated signals",
    text: "CALL, PUT and straddle setups from momentum, mean-reversion, breakout and volatility strategies, each with strike, expiry and a strength score out of 100.",
  },
  {
    Icon: BriefcaseBusinessIcon,
    title: "Portfolio analytics",
    text: "Positions opened from signals next to contracts you enter yourself, with P&L after commissions, Greeks and a risk assessment.",
  },
  {
    Icon: FlaskConicalIcon,
    title: "Strategy backtesting",
    text: "Replay each strategy over historical prices and compare them. Results are always labelled as backtested.",
  },
  {
    Icon: NewspaperIcon,
    title: "News with AI analysis",
    text: "Market headlines with sentiment and a suggested position, and a note of which analyser produced it.",
  },
];

const REASONS = [
  "Every figure we show comes from recorded results and names its period. Too little data means no number.",
  "Each signal carries its reasoning: the strategy, the indicators and how strongly its conditions are met (strength, out of 100).",
  "Your capital, risk tolerance and preferred strategies decide which signals are tracked for you.",
  "A documented public API with keys and permissions you control.",
];

const CONTACT_LINKS = [
  { Icon: LifeBuoyIcon, title: "Help Center", text: "Answers about signals, portfolios and billing.", href: "/help" },
  { Icon: BookOpenIcon, title: "Documentation", text: "Quick-start guides and the API reference.", href: "/documentation" },
];

function ExampleSignal() {
  return (
    <div className="relative mx-auto w-full max-w-md">
      <div
        aria-hidden
        className="absolute -inset-6 -z-10 rounded-[2rem] bg-[radial-gradient(circle_at_50%_40%,color-mix(in_oklab,var(--color-primary)_18%,transparent),transparent_70%)]"
      />
      <figure className="rounded-2xl border bg-card p-6 shadow-xl" aria-label="Example signal, not live data">
        <p className="mb-5 flex items-center justify-between gap-3 border-b pb-4 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          Example signal
          <span className="rounded-full border px-2 py-0.5 font-medium tracking-normal normal-case">Not live data</span>
        </p>
        <div className="flex items-start justify-between gap-4">
          <div>
            <p className="text-lg font-semibold tracking-tight">MSFT</p>
            <p className="text-sm text-muted-foreground">Microsoft Corporation</p>
          </div>
          <Badge className="bg-positive/12 px-2.5 py-1 text-positive-strong" variant="secondary">
            CALL
          </Badge>
        </div>
        <dl className="mt-6 grid grid-cols-3 gap-4 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">Strike</dt>
            <dd className="mt-1 font-semibold tabular">$420.00</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Expiry</dt>
            <dd className="mt-1 font-semibold">30 days</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Strategy</dt>
            <dd className="mt-1 font-semibold">Momentum</dd>
          </div>
        </dl>
        <div className="mt-6">
          <div className="flex items-center justify-between text-xs">
            <span className="text-muted-foreground">Strength</span>
            <span className="font-semibold tabular">68/100</span>
          </div>
          <div className="mt-2 h-1.5 rounded-full bg-muted">
            <div className="h-full w-[68%] rounded-full bg-primary" />
          </div>
        </div>
        <p className="mt-6 rounded-lg bg-muted/70 p-3 text-sm text-muted-foreground">
          Close above the 20-day average on rising volume; RSI 61 leaves room before overbought.
        </p>
        <figcaption className="mt-4 text-center text-xs text-muted-foreground">
          An illustration of how a signal is presented. It is not a live signal or a recommendation.
        </figcaption>
      </figure>
    </div>
  );
}

/**
 * True once the first paint is done: the sections below the hero then render in a transition,
 * in small slices, so the hero (the largest paint) is not held up by the whole page.
 */
function useRestOfPage(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => startTransition(() => setReady(true)), []);
  return ready;
}

export function LandingPage({ contactForm }: { contactForm: React.ReactNode }) {
  usePageMeta(
    "Options signals with the reasoning attached",
    "Strikeline scans US equities for CALL, PUT and straddle setups, tracks every position in one portfolio and backtests the strategies behind them. Live figures, no invented claims.",
  );
  const { data: catalogue } = usePlans();
  const trial = catalogue ? `${catalogue.trialDays}-day Pro trial` : "Pro trial";
  const rest = useRestOfPage();

  return (
    <>
      <section className="relative overflow-hidden border-b">
        <div
          aria-hidden
          className="pointer-events-none absolute inset-0 bg-[linear-gradient(to_bottom,color-mix(in_oklab,var(--color-primary)_6%,transparent),transparent_60%)]"
        />
        <div className="relative mx-auto grid max-w-7xl items-center gap-14 px-4 py-16 sm:px-6 sm:py-24 lg:grid-cols-2 lg:px-8">
          <div>
            <Badge variant="soft" className="px-3 py-1">
              {trial} · no credit card
            </Badge>
            <h1 className="mt-5 text-4xl leading-[1.1] font-semibold tracking-tight sm:text-5xl lg:text-[3.4rem]">
              Options signals with the reasoning attached.
            </h1>
            <p className="mt-5 max-w-xl text-lg text-muted-foreground">
              Strikeline scans US equities for CALL, PUT and straddle setups, tracks every position in one portfolio and lets you backtest
              the strategies behind them.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button asChild size="lg">
                <Link to="/register">
                  Start Free Trial
                  <ArrowRightIcon />
                </Link>
              </Button>
              <Button asChild size="lg" variant="outline">
                <Link to="/#features">See how it works</Link>
              </Button>
            </div>
            <p className="mt-4 text-sm text-muted-foreground">Not financial advice. Options involve risk of loss.</p>
          </div>
          <ExampleSignal />
        </div>
      </section>

      {rest ? (
        <>
          <section id="features" className="scroll-mt-16 py-20 sm:py-24">
            <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
              <div className="max-w-2xl">
                <p className="text-sm font-semibold text-primary">Features</p>
                <h2 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">Everything between the idea and the trade</h2>
                <p className="mt-4 text-muted-foreground">
                  From a signal to a tracked position to a backtest of the strategy that produced it.
                </p>
              </div>
              <div className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
                {FEATURES.map(({ Icon, title, text }) => (
                  <div key={title} className="rounded-xl border bg-card p-6 shadow-xs">
                    <div className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                      <Icon className="size-5" aria-hidden />
                    </div>
                    <h3 className="mt-5 font-semibold">{title}</h3>
                    <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
                  </div>
                ))}
              </div>
            </div>
          </section>

          <section aria-labelledby="figures-heading" className="border-y bg-sidebar">
            <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
              <div className="mb-8 flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
                <div>
                  <p className="text-sm font-semibold text-primary">Live platform figures</p>
                  <h2 id="figures-heading" className="mt-2 text-2xl font-semibold tracking-tight">
                    Counted from our records, with their periods
                  </h2>
                </div>
                <p className="max-w-md text-sm text-muted-foreground">
                  No rounded-up marketing numbers: where there is too little data for a figure, the card says so.
                </p>
              </div>
              <PlatformFigures />
              <p className="mt-6 text-sm">
                <Link
                  to="/track-record"
                  className="group inline-flex items-center gap-1.5 font-medium text-primary underline-offset-4 hover:underline"
                >
                  Every live call and how often each kind was right: see the track record
                  <ArrowRightIcon className="size-4 transition-transform group-hover:translate-x-0.5" aria-hidden />
                </Link>
              </p>
            </div>
          </section>

          <section id="pricing" className="scroll-mt-16 py-20 sm:py-24">
            <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
              <div className="mx-auto max-w-2xl text-center">
                <p className="text-sm font-semibold text-primary">Pricing</p>
                <h2 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">Plans for every stage</h2>
                <p className="mt-4 text-muted-foreground">
                  Start with the {trial}. Afterwards stay on Free or pick the plan that fits.{" "}
                  <Link to="/pricing" className="font-medium text-primary underline-offset-4 hover:underline">
                    Compare plans in detail
                  </Link>
                </p>
              </div>
              <div className="mt-14">
                <PlanCards
                  billing="monthly"
                  action={(plan) => (
                    <Button asChild className="w-full" variant={plan.mostPopular ? "default" : "outline"} size="lg">
                      <Link to="/register">{plan.monthlyPrice === 0 ? "Start for free" : `Start with ${plan.name}`}</Link>
                    </Button>
                  )}
                />
              </div>
            </div>
          </section>

          <section id="contact" className="scroll-mt-16 border-t bg-sidebar py-20 sm:py-24">
            <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-[2fr_3fr] lg:px-8">
              <div>
                <p className="text-sm font-semibold text-primary">Contact</p>
                <h2 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">Questions before you start?</h2>
                <p className="mt-4 text-muted-foreground">
                  Send us a message and we&apos;ll get back to you within {COMPANY.formResponse}. Or find an answer yourself:
                </p>
                <ul className="mt-8 space-y-4">
                  {CONTACT_LINKS.map(({ Icon, title, text, href }) => (
                    <li key={href}>
                      <Link
                        to={href}
                        className="group flex gap-4 rounded-xl border bg-card p-4 shadow-xs transition-colors hover:border-primary/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                      >
                        <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
                        <span>
                          <span className="flex items-center gap-1.5 font-semibold">
                            {title}
                            <ArrowRightIcon className="size-4 transition-transform group-hover:translate-x-0.5" aria-hidden />
                          </span>
                          <span className="mt-0.5 block text-sm text-muted-foreground">{text}</span>
                        </span>
                      </Link>
                    </li>
                  ))}
                  <li className="flex gap-4 rounded-xl border bg-card p-4 shadow-xs">
                    <MailIcon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
                    <span>
                      <span className="block font-semibold">Email</span>
                      <a
                        href={`mailto:${COMPANY.email.support}`}
                        className="mt-0.5 block text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
                      >
                        {COMPANY.email.support}
                      </a>
                    </span>
                  </li>
                </ul>
              </div>
              <div className="rounded-2xl border bg-card p-6 shadow-sm sm:p-8">{contactForm}</div>
            </div>
          </section>

          <section className="py-20 sm:py-24">
            <div className="mx-auto grid max-w-7xl gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:px-8">
              <div>
                <p className="text-sm font-semibold text-primary">Why Strikeline</p>
                <h2 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">Built to be checked, not believed</h2>
                <p className="mt-4 text-muted-foreground">
                  Trading tools earn trust by showing their work. We publish how signals are made and measured.
                </p>
              </div>
              <ul className="space-y-5">
                {REASONS.map((reason) => (
                  <li key={reason} className="flex gap-3">
                    <CheckCircle2Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
                    <span className="text-[0.95rem]">{reason}</span>
                  </li>
                ))}
              </ul>
            </div>
          </section>

          <section className="px-4 pb-20 sm:px-6 sm:pb-24 lg:px-8">
            <div className="relative mx-auto max-w-7xl overflow-hidden rounded-3xl bg-primary px-6 py-14 text-center text-primary-foreground sm:px-12">
              <div
                aria-hidden
                className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_30%_0%,rgb(255_255_255/0.18),transparent_55%)]"
              />
              <h2 className="relative text-3xl font-semibold tracking-tight sm:text-4xl">
                Try every Pro feature{catalogue ? ` for ${catalogue.trialDays} days` : ""}
              </h2>
              <p className="relative mx-auto mt-4 max-w-xl">
                No credit card. When the trial ends your account moves to Free unless you choose a plan.
              </p>
              <Button asChild size="lg" variant="secondary" className="relative mt-8">
                <Link to="/register">
                  Start Free Trial
                  <ArrowRightIcon />
                </Link>
              </Button>
            </div>
          </section>
        </>
      ) : (
        <div className="min-h-dvh" aria-hidden />
      )}
    </>
  );
}
