import { HandshakeIcon, LightbulbIcon, ShieldCheckIcon, TrophyIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { COMPANY, TEAM } from "@/content/company";
import { PlatformFigures } from "@/features/marketing/components/platform-figures";
import { usePageMeta } from "@/lib/page-meta";

const VALUES = [
  {
    Icon: LightbulbIcon,
    title: "Innovation",
    text: "We apply quantitative methods and AI where they help a trader decide, and nowhere else.",
  },
  {
    Icon: ShieldCheckIcon,
    title: "Trust",
    text: "Figures come from recorded results and name their period. Backtests are labelled as such.",
  },
  { Icon: HandshakeIcon, title: "Community", text: "Traders learn fastest from each other; we build room for that." },
  { Icon: TrophyIcon, title: "Excellence", text: "Correct prices, clear reasoning and a product that stays out of the way." },
];

const FACTS = [
  { value: String(COMPANY.founded), label: "Founded" },
  { value: COMPANY.headquarters, label: "Headquarters" },
  { value: COMPANY.teamSize, label: "People on the team" },
  { value: String(COMPANY.countries), label: "Countries we work from" },
];

export default function AboutRoute() {
  usePageMeta(
    "About",
    "Strikeline builds options trading tools for individual investors, with the reasoning behind every number in plain sight. Our mission, values, team and live platform figures.",
  );
  return (
    <>
      <section className="border-b bg-sidebar">
        <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 sm:py-16 lg:px-8">
          <p className="text-sm font-semibold text-primary">About</p>
          <h1 className="mt-2 max-w-3xl text-3xl font-semibold tracking-tight sm:text-4xl">About Strikeline</h1>
          <p className="mt-4 max-w-2xl text-lg text-muted-foreground">
            We build tools that help retail traders find, track and test options trades with the reasoning in plain sight.
          </p>
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 lg:px-8">
        <section aria-labelledby="mission-heading" className="grid gap-10 lg:grid-cols-2">
          <div>
            <h2 id="mission-heading" className="text-2xl font-semibold tracking-tight">
              Our mission
            </h2>
            <div className="mt-4 space-y-4 leading-relaxed text-muted-foreground">
              <p>
                Options can express a view on a stock with defined risk, but the tools that make them manageable are often built for
                institutions. Strikeline brings signal generation, portfolio analytics and backtesting to individual traders, and shows the
                working behind every number.
              </p>
              <p>
                We started Strikeline in {COMPANY.founded} after years of watching capable people lose money to oversized trades and
                marketing claims nobody could check. So we publish how signals are made and measured, label backtests as backtests, and show
                no figure we cannot back up.
              </p>
            </div>
          </div>
          <dl className="grid grid-cols-2 gap-4 self-start">
            {FACTS.map((fact) => (
              <div key={fact.label} className="rounded-xl border bg-card p-5">
                <dt className="text-sm text-muted-foreground">{fact.label}</dt>
                <dd className="mt-1 text-2xl font-semibold tracking-tight">{fact.value}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section aria-labelledby="values-heading" className="mt-16">
          <h2 id="values-heading" className="text-2xl font-semibold tracking-tight">
            What we value
          </h2>
          <div className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {VALUES.map(({ Icon, title, text }) => (
              <div key={title} className="rounded-xl border bg-card p-6">
                <Icon className="size-5 text-primary" aria-hidden />
                <h3 className="mt-3 font-semibold">{title}</h3>
                <p className="mt-1.5 text-sm leading-relaxed text-muted-foreground">{text}</p>
              </div>
            ))}
          </div>
        </section>

        <section aria-labelledby="team-heading" className="mt-16">
          <h2 id="team-heading" className="text-2xl font-semibold tracking-tight">
            Leadership team
          </h2>
          <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {TEAM.map((member) => (
              <li key={member.name} className="rounded-xl border bg-card p-6">
                <div className="flex size-12 items-center justify-center rounded-full bg-primary/10 font-semibold text-primary" aria-hidden>
                  {member.initials}
                </div>
                <h3 className="mt-4 font-semibold">{member.name}</h3>
                <p className="text-sm text-primary">{member.role}</p>
                <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{member.bio}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="figures-heading" className="mt-16">
          <h2 id="figures-heading" className="text-2xl font-semibold tracking-tight">
            Strikeline in numbers
          </h2>
          <p className="mt-2 mb-6 max-w-2xl text-muted-foreground">
            Counted live from the platform&apos;s own records, each with its period. Where there is too little data, we say so.
          </p>
          <PlatformFigures />
        </section>

        <div className="mt-16 flex flex-col gap-3 rounded-2xl border bg-sidebar p-8 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <h2 className="text-xl font-semibold tracking-tight">See it for yourself</h2>
            <p className="mt-1 text-sm text-muted-foreground">Every new account starts with a Pro trial, no credit card.</p>
          </div>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button asChild size="lg">
              <Link to="/register">Start Free Trial</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/pricing">View pricing</Link>
            </Button>
          </div>
        </div>
      </div>
    </>
  );
}
