import {
  ArrowRightIcon,
  BriefcaseIcon,
  GlobeIcon,
  GraduationCapIcon,
  HeartPulseIcon,
  MailIcon,
  MapPinIcon,
  PiggyBankIcon,
  ScaleIcon,
  SunIcon,
} from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { FilterChips } from "@/components/filter-chips";
import { Badge } from "@/components/ui/badge";
import { DEPARTMENTS, type Department, OPENINGS } from "@/content/careers";
import { COMPANY } from "@/content/company";
import { countByDepartment, filterOpenings } from "../lib/filter";

const BENEFITS = [
  {
    Icon: HeartPulseIcon,
    title: "Health coverage",
    text: "Medical, dental and vision for you and your dependants, with premiums fully paid.",
  },
  { Icon: PiggyBankIcon, title: "401(k) with match", text: "We match contributions up to 4% of salary, vested from day one." },
  { Icon: SunIcon, title: "Time off", text: "25 days of paid vacation plus US market holidays, and 16 weeks of paid parental leave." },
  { Icon: GraduationCapIcon, title: "Learning budget", text: "$2,000 a year for courses, books and conferences." },
  {
    Icon: GlobeIcon,
    title: "Remote-friendly",
    text: "Work from our New York office or remotely within the US, with a home-office stipend.",
  },
  { Icon: ScaleIcon, title: "Equity", text: "Every full-time employee receives stock options." },
];

const CULTURE = [
  {
    title: "Write it down",
    text: "Decisions, designs and post-mortems are written, so anyone can understand why things are the way they are.",
  },
  { title: "Honest numbers", text: "We never show a figure we cannot back up, to users or to each other." },
  { title: "Small teams, real ownership", text: "Each team owns a part of the product from idea to production and talks to its users." },
  { title: "Respect the market hours", text: "Releases and on-call are planned around the trading day, so nobody firefights at 9:30." },
];

const DEPARTMENT_OPTIONS = (counts: Record<string, number>) => [
  { value: "All" as const, label: "All", count: counts.All ?? 0 },
  ...DEPARTMENTS.map((d) => ({ value: d, label: d, count: counts[d] ?? 0 })),
];

function parseDepartment(value: string | null): Department | "All" {
  return (DEPARTMENTS as readonly string[]).includes(value ?? "") ? (value as Department) : "All";
}

export function CareersPage() {
  const [params, setParams] = useSearchParams();
  const department = parseDepartment(params.get("department"));
  const openings = filterOpenings(OPENINGS, department);
  const counts = countByDepartment(OPENINGS);

  const setDepartment = (value: Department | "All") =>
    setParams(value === "All" ? {} : { department: value }, { replace: true, preventScrollReset: true });

  return (
    <div>
      <section aria-labelledby="culture-heading">
        <h2 id="culture-heading" className="text-2xl font-semibold tracking-tight">
          How we work
        </h2>
        <p className="mt-3 max-w-2xl text-muted-foreground">
          We are {COMPANY.teamSize} people in {COMPANY.countries} countries, headquartered in {COMPANY.headquarters}, building trading tools
          that individual investors can trust.
        </p>
        <div className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {CULTURE.map((item) => (
            <div key={item.title} className="rounded-xl border bg-card p-5">
              <h3 className="font-semibold">{item.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{item.text}</p>
            </div>
          ))}
        </div>
      </section>

      <section aria-labelledby="openings-heading" className="mt-16">
        <h2 id="openings-heading" className="text-2xl font-semibold tracking-tight">
          Open positions
        </h2>
        <FilterChips
          className="mt-6"
          label="Departments"
          options={DEPARTMENT_OPTIONS(counts)}
          value={department}
          onChange={setDepartment}
        />
        {openings.length === 0 ? (
          <EmptyState
            className="mt-6"
            icon={BriefcaseIcon}
            title="No open positions"
            description="There are no openings in this department right now."
          />
        ) : (
          <ul className="mt-6 divide-y rounded-2xl border bg-card" aria-live="polite">
            {openings.map((opening) => (
              <li
                key={opening.slug}
                className="group relative flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6"
              >
                <div>
                  <div className="flex flex-wrap items-center gap-2">
                    <h3 className="font-semibold">{opening.title}</h3>
                    <Badge variant="soft">{opening.department}</Badge>
                  </div>
                  <p className="mt-1.5 text-sm text-muted-foreground">{opening.summary}</p>
                  <p className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
                    <span className="inline-flex items-center gap-1">
                      <MapPinIcon className="size-3.5" aria-hidden />
                      {opening.location}
                    </span>
                    <span>{opening.employment}</span>
                    <span>{opening.salary}</span>
                  </p>
                </div>
                <Link
                  to={`/careers/${opening.slug}`}
                  aria-label={`Apply: ${opening.title}`}
                  className="inline-flex shrink-0 items-center gap-1.5 text-sm font-medium text-primary outline-none after:absolute after:inset-0 focus-visible:after:ring-2 focus-visible:after:ring-ring focus-visible:after:ring-inset"
                >
                  Apply
                  <ArrowRightIcon className="size-4 transition-transform group-hover:translate-x-0.5" aria-hidden />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="benefits-heading" className="mt-16">
        <h2 id="benefits-heading" className="text-2xl font-semibold tracking-tight">
          Benefits
        </h2>
        <div className="mt-8 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {BENEFITS.map(({ Icon, title, text }) => (
            <div key={title} className="flex gap-4 rounded-xl border bg-card p-5">
              <Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
              <div>
                <h3 className="font-semibold">{title}</h3>
                <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{text}</p>
              </div>
            </div>
          ))}
        </div>
      </section>

      <section aria-labelledby="careers-contact-heading" className="mt-16 rounded-2xl border bg-sidebar p-6 sm:p-10">
        <h2 id="careers-contact-heading" className="text-xl font-semibold tracking-tight">
          Don&apos;t see your role?
        </h2>
        <p className="mt-2 max-w-2xl text-sm text-muted-foreground">
          We read every message. Tell us what you would like to work on and send a CV or a link to your work.
        </p>
        <a
          href={`mailto:${COMPANY.email.careers}`}
          className="mt-5 inline-flex items-center gap-2 text-sm font-medium text-primary underline-offset-4 hover:underline"
        >
          <MailIcon className="size-4" aria-hidden />
          {COMPANY.email.careers}
        </a>
      </section>
    </div>
  );
}
