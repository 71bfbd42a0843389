import { ArrowLeftIcon, BriefcaseIcon, CircleDollarSignIcon, MailIcon, MapPinIcon } from "lucide-react";
import { Link } from "react-router";
import { Breadcrumbs } from "@/components/breadcrumbs";
import { MarkdownBody } from "@/components/markdown-body";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import type { Opening } from "@/content/careers";
import { COMPANY } from "@/content/company";
import { usePageMeta } from "@/lib/page-meta";
import { applyHref } from "../lib/filter";

/** One opening: the role in full, with how to apply. */
export function OpeningPage({ opening }: { opening: Opening }) {
  usePageMeta(`${opening.title} (${opening.department})`, `${opening.summary} ${opening.location}. ${opening.salary}.`);
  const facts = [
    { Icon: MapPinIcon, label: "Location", value: opening.location },
    { Icon: BriefcaseIcon, label: "Employment", value: opening.employment },
    { Icon: CircleDollarSignIcon, label: "Pay range", value: opening.salary },
  ];
  return (
    <>
      <section className="border-b bg-sidebar">
        <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-14 lg:px-8">
          <Breadcrumbs items={[{ label: "Careers", href: "/careers" }, { label: opening.title }]} />
          <Badge variant="soft" className="mt-6">
            {opening.department}
          </Badge>
          <h1 className="mt-4 text-3xl font-semibold tracking-tight sm:text-4xl">{opening.title}</h1>
          <p className="mt-4 max-w-2xl text-lg text-muted-foreground">{opening.summary}</p>
        </div>
      </section>
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_18rem] lg:px-8">
        <div className="min-w-0">
          <MarkdownBody id={`careers/${opening.slug}`} load={opening.loadBody} />
          <div className="mt-10 border-t pt-8">
            <Link
              to="/careers"
              className="inline-flex items-center gap-2 text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              <ArrowLeftIcon className="size-4" aria-hidden />
              All open positions
            </Link>
          </div>
        </div>
        <aside className="lg:sticky lg:top-24 lg:self-start">
          <div className="rounded-2xl border bg-card p-6">
            <dl className="grid gap-4 text-sm">
              {facts.map(({ Icon, label, value }) => (
                <div key={label}>
                  <dt className="flex items-center gap-1.5 text-muted-foreground">
                    <Icon className="size-4" aria-hidden />
                    {label}
                  </dt>
                  <dd className="mt-1 font-medium">{value}</dd>
                </div>
              ))}
            </dl>
            <Button asChild className="mt-6 w-full">
              <a href={applyHref(COMPANY.email.careers, opening)}>
                <MailIcon />
                Apply by email
              </a>
            </Button>
            <p className="mt-3 text-xs leading-relaxed text-muted-foreground">
              Send your CV and a few lines on why the role interests you to {COMPANY.email.careers}. We reply to every application within
              two weeks.
            </p>
          </div>
        </aside>
      </div>
    </>
  );
}
