import {
  ArrowRightIcon,
  BookOpenIcon,
  CreditCardIcon,
  LayoutDashboardIcon,
  LifeBuoyIcon,
  MailIcon,
  RocketIcon,
  SearchIcon,
  UsersIcon,
} from "lucide-react";
import { type FormEvent, type ReactNode, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { EmptyState } from "@/components/empty-state";
import { SearchInput } from "@/components/search-input";
import { SupportPhoneLine } from "@/components/support-phone";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";
import { Button } from "@/components/ui/button";
import { COMPANY, SUPPORT_RESPONSE } from "@/content/company";
import { HELP_ARTICLES, HELP_CATEGORIES, type HelpCategory, helpArticlePath, helpArticlesIn } from "@/content/help";
import { POPULAR_TOPICS, searchHelp } from "../lib/search";

export const CATEGORY_ICONS: Record<HelpCategory["slug"], typeof RocketIcon> = {
  "getting-started": RocketIcon,
  "trading-guides": BookOpenIcon,
  "platform-features": LayoutDashboardIcon,
  "account-billing": CreditCardIcon,
};

type Faq = { q: string; a: ReactNode };

function faqs(freshness: string | null): Faq[] {
  return [
    {
      q: "How often do signals update?",
      a: `Signals are produced during US market hours, 9:30 AM to 4:00 PM Eastern on trading days. ${
        freshness ?? "They refresh on the platform's schedule."
      } Outside market hours the list does not change.`,
    },
    {
      q: "What does a signal's strength score mean?",
      a: (
        <>
          Strength, a score from 1 to 100 (the confidence field in the API), measures how strongly the strategy&apos;s conditions are met.
          It is a score, not a probability: a strength of 74/100 does not mean a 74% chance that the trade makes money. The calibrated
          record of how often signals actually won is published on the{" "}
          <Link to="/track-record" className="font-medium text-primary underline-offset-4 hover:underline">
            track record page
          </Link>
          .
        </>
      ),
    },
    {
      q: "Which markets does Strikeline cover?",
      a: "US equity options only: calls, puts and straddles on US-listed stocks. Index options, futures and crypto are not covered.",
    },
    {
      q: "Is there a mobile app?",
      a: "Strikeline is a web app. It works in any modern browser on a computer, tablet or phone; there is no app to install.",
    },
    {
      q: "Are automated positions real trades?",
      a: "No. Automated positions are paper trades opened from signals that match your preferences, tracked with commissions. Each one is an order sent to the built-in paper broker, which fills it at the signal's premium with 1% slippage and $0.65 a contract; the Orders list on the Portfolio page shows every order, fill and refusal. No order reaches a real broker.",
    },
    {
      q: "How do I cancel my subscription?",
      a: "In Settings. Cancellation takes effect at the end of the billing period, you keep your plan until then, and partial months are not refunded.",
    },
    {
      q: "How do I get an API key?",
      a: "Under Settings > API Keys. Every plan can create keys; the key is shown once, and requests send it as a bearer token.",
    },
    {
      q: "Is Strikeline financial advice?",
      a: "No. Signals, analysis and recommendations are information to help you decide. Options involve substantial risk of loss.",
    },
  ];
}

/**
 * The Help Center: search over the help articles (a Search button appears once text is typed;
 * the query is kept in the URL), popular topics, the four categories with their real article
 * counts, an FAQ, contact options and the contact form.
 */
export function HelpCenter({ freshness, contactForm }: { freshness: string | null; contactForm: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const submitted = params.get("q") ?? "";
  const [input, setInput] = useState(submitted);
  const results = searchHelp(HELP_ARTICLES, submitted);

  const search = (query: string) => {
    setInput(query);
    setParams(query.trim() ? { q: query.trim() } : {}, { replace: true, preventScrollReset: true });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    search(input);
  };

  return (
    <div>
      <form role="search" onSubmit={onSubmit} className="flex max-w-2xl flex-col gap-3 sm:flex-row">
        <SearchInput
          id="help-search"
          label="Search help articles"
          placeholder="Search for answers, e.g. breakeven or API key"
          value={input}
          onChange={(value) => (value ? setInput(value) : search(""))}
          className="flex-1"
          inputClassName="h-11"
        />
        {input.trim() ? (
          <Button type="submit" size="lg">
            <SearchIcon />
            Search
          </Button>
        ) : null}
      </form>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <span className="text-sm text-muted-foreground">Popular:</span>
        {POPULAR_TOPICS.slice(0, 4).map((topic) => (
          <button
            key={topic}
            type="button"
            onClick={() => search(topic)}
            className="rounded-full border bg-card px-3 py-1 text-sm text-muted-foreground transition-colors outline-none hover:border-primary/40 hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
          >
            {topic}
          </button>
        ))}
      </div>

      {submitted ? (
        <section aria-labelledby="help-results-heading" className="mt-10">
          <h2 id="help-results-heading" className="text-lg font-semibold" aria-live="polite">
            {results.length === 1 ? "1 article" : `${results.length} articles`} for “{submitted}”
          </h2>
          {results.length > 0 ? (
            <ul className="mt-4 divide-y rounded-xl border bg-card">
              {results.map((article) => (
                <li key={`${article.category}/${article.slug}`}>
                  <Link
                    to={helpArticlePath(article)}
                    className="group flex items-start justify-between gap-4 p-5 outline-none hover:bg-accent/50 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
                  >
                    <span>
                      <span className="block font-medium group-hover:text-primary">{article.title}</span>
                      <span className="mt-1 block text-sm text-muted-foreground">{article.summary}</span>
                      <span className="mt-2 block text-xs text-muted-foreground">
                        {HELP_CATEGORIES.find((c) => c.slug === article.category)?.title} · {article.readingMinutes} min read
                      </span>
                    </span>
                    <ArrowRightIcon className="mt-1 size-4 shrink-0 text-primary" aria-hidden />
                  </Link>
                </li>
              ))}
            </ul>
          ) : (
            <EmptyState
              className="mt-4"
              icon={SearchIcon}
              title="No articles found"
              description="No help article matches your search. Try other words, browse the categories below, or send us a message."
            />
          )}
        </section>
      ) : null}

      <section aria-labelledby="categories-heading" className="mt-14">
        <h2 id="categories-heading" className="text-2xl font-semibold tracking-tight">
          Browse by category
        </h2>
        <div className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {HELP_CATEGORIES.map((category) => {
            const Icon = CATEGORY_ICONS[category.slug];
            const count = helpArticlesIn(category.slug).length;
            return (
              <Link
                key={category.slug}
                to={`/help/${category.slug}`}
                className="group flex flex-col rounded-xl border bg-card p-6 shadow-xs transition-colors outline-none hover:border-primary/50 focus-visible:ring-2 focus-visible:ring-ring"
              >
                <div className="flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                  <Icon className="size-5" aria-hidden />
                </div>
                <h3 className="mt-4 font-semibold group-hover:text-primary">{category.title}</h3>
                <p className="mt-1.5 flex-1 text-sm leading-relaxed text-muted-foreground">{category.description}</p>
                <p className="mt-4 text-sm font-medium text-primary">{count === 1 ? "1 article" : `${count} articles`}</p>
              </Link>
            );
          })}
        </div>
      </section>

      <section aria-labelledby="faq-heading" className="mt-16 grid gap-8 lg:grid-cols-[1fr_2fr]">
        <div>
          <h2 id="faq-heading" className="text-2xl font-semibold tracking-tight">
            Frequently asked questions
          </h2>
          <p className="mt-3 text-muted-foreground">Short answers to what traders ask us most.</p>
        </div>
        <Accordion type="single" collapsible className="rounded-xl border bg-card px-5">
          {faqs(freshness).map((item) => (
            <AccordionItem key={item.q} value={item.q}>
              <AccordionTrigger>{item.q}</AccordionTrigger>
              <AccordionContent>{item.a}</AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
      </section>

      <section id="contact" aria-labelledby="contact-heading" className="mt-16 scroll-mt-20">
        <h2 id="contact-heading" className="text-2xl font-semibold tracking-tight">
          Still need help?
        </h2>
        <p className="mt-3 max-w-2xl text-muted-foreground">
          {`Support answers within ${SUPPORT_RESPONSE.free} on Free, ${SUPPORT_RESPONSE.pro} on Pro, and around the clock (${SUPPORT_RESPONSE.premium}) on Premium.`}
        </p>
        <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_1.4fr]">
          <ul className="grid content-start gap-4">
            <li className="flex gap-4 rounded-xl border bg-card p-5">
              <MailIcon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
              <div>
                <h3 className="font-semibold">Email support</h3>
                <p className="mt-1 text-sm text-muted-foreground">Answers within {COMPANY.emailResponse}.</p>
                <a
                  href={`mailto:${COMPANY.email.support}`}
                  className="mt-2 inline-block text-sm font-medium text-primary underline-offset-4 hover:underline"
                >
                  {COMPANY.email.support}
                </a>
              </div>
            </li>
            <SupportPhoneLine variant="card" />
            <li className="flex gap-4 rounded-xl border bg-card p-5">
              <UsersIcon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
              <div>
                <h3 className="font-semibold">Community</h3>
                <p className="mt-1 text-sm text-muted-foreground">Strategy questions and how other traders use Strikeline.</p>
                <Link to="/community" className="mt-2 inline-block text-sm font-medium text-primary underline-offset-4 hover:underline">
                  Visit the community
                </Link>
              </div>
            </li>
            <li className="flex gap-4 rounded-xl border bg-card p-5">
              <LifeBuoyIcon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
              <div>
                <h3 className="font-semibold">Documentation</h3>
                <p className="mt-1 text-sm text-muted-foreground">Step-by-step guides and the API reference.</p>
                <Link to="/documentation" className="mt-2 inline-block text-sm font-medium text-primary underline-offset-4 hover:underline">
                  Open the documentation
                </Link>
              </div>
            </li>
          </ul>
          <div className="rounded-2xl border bg-card p-6 sm:p-8">
            <h3 className="text-lg font-semibold">Send us a message</h3>
            <p className="mt-1 mb-6 text-sm text-muted-foreground">We reply within {COMPANY.formResponse}.</p>
            {contactForm}
          </div>
        </div>
      </section>
    </div>
  );
}
