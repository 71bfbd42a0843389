import { ArrowRightIcon, InfoIcon, MessagesSquareIcon, ScrollTextIcon, ShieldCheckIcon, UserPlusIcon } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { COMMUNITY_CATEGORIES, SAMPLE_THREADS } from "@/content/community";
import { usePageMeta } from "@/lib/page-meta";

const STEPS = [
  { title: "Create a free account", text: "Your username is the name other members see. Every plan, Free included, can take part." },
  { title: "Read the guidelines", text: "Share reasoning and risk, label results live, paper or backtested, and never give advice." },
  {
    title: "Start in the right category",
    text: "Questions go to Education & Learning, ideas to Strategy Sharing, product questions to Platform Support.",
  },
];

/**
 * The community page, with no member, discussion or contributor counts
 * (docs/decisions.md#13-honest-figures): categories,
 * guidelines and how to join; the discussions shown are samples, labelled as such.
 */
export function CommunityPage({ signedIn }: { signedIn: boolean }) {
  usePageMeta(
    "Community",
    "Strikeline's community of options traders: discussion categories, community guidelines and how to join. Sample threads show what each category is for.",
  );
  return (
    <>
      <section className="border-b bg-sidebar">
        <div className="mx-auto max-w-7xl px-4 py-14 sm:px-6 sm:py-16 lg:px-8">
          <p className="text-sm font-semibold text-primary">Community</p>
          <h1 className="mt-2 text-3xl font-semibold tracking-tight sm:text-4xl">Strikeline Community</h1>
          <p className="mt-4 max-w-2xl text-lg text-muted-foreground">
            A place for options traders to share strategies, ask questions and learn from each other&apos;s trades, with the reasoning and
            the risk in plain sight.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            {signedIn ? (
              <Button asChild size="lg">
                <Link to="/dashboard">Go to Dashboard</Link>
              </Button>
            ) : (
              <Button asChild size="lg">
                <Link to="/register">
                  <UserPlusIcon />
                  Join the Community
                </Link>
              </Button>
            )}
            <Button asChild size="lg" variant="outline">
              <Link to="/community/guidelines">Read the guidelines</Link>
            </Button>
          </div>
        </div>
      </section>

      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_20rem] lg:px-8">
        <div className="min-w-0">
          <Tabs defaultValue="discussions">
            <TabsList aria-label="Community">
              <TabsTrigger value="discussions">
                <MessagesSquareIcon aria-hidden />
                Sample Discussions
              </TabsTrigger>
              <TabsTrigger value="categories">Categories</TabsTrigger>
            </TabsList>
            <TabsContent value="discussions" className="mt-6">
              <p className="mb-5 flex gap-2.5 rounded-xl border border-dashed bg-card/50 p-4 text-sm text-muted-foreground">
                <InfoIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                These are sample threads written by the Strikeline team to show what each category is for. They are not member posts, and we
                show no reply or view counts we have not measured.
              </p>
              <ul className="grid gap-4">
                {SAMPLE_THREADS.map((thread) => (
                  <li key={thread.title} className="rounded-xl border bg-card p-5">
                    <div className="flex flex-wrap items-center gap-2">
                      <Badge variant="outline">Sample</Badge>
                      <Badge variant="soft">{thread.category}</Badge>
                    </div>
                    <h3 className="mt-3 font-semibold">{thread.title}</h3>
                    <p className="mt-1.5 text-sm leading-relaxed text-muted-foreground">{thread.excerpt}</p>
                    <Link
                      to={thread.related.href}
                      className="mt-3 inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
                    >
                      Read more: {thread.related.label}
                      <ArrowRightIcon className="size-4" aria-hidden />
                    </Link>
                  </li>
                ))}
              </ul>
            </TabsContent>
            <TabsContent value="categories" className="mt-6">
              <ul className="grid gap-4 sm:grid-cols-2">
                {COMMUNITY_CATEGORIES.map((category) => (
                  <li key={category.slug} className="rounded-xl border bg-card p-5">
                    <h3 className="font-semibold">{category.name}</h3>
                    <p className="mt-1.5 text-sm leading-relaxed text-muted-foreground">{category.description}</p>
                    <p className="mt-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">For example</p>
                    <ul className="mt-1.5 list-disc space-y-1 pl-5 text-sm text-muted-foreground">
                      {category.examples.map((example) => (
                        <li key={example}>{example}</li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            </TabsContent>
          </Tabs>
        </div>

        <aside className="grid content-start gap-6">
          <section aria-labelledby="guidelines-heading" className="rounded-2xl border bg-card p-6">
            <h2 id="guidelines-heading" className="flex items-center gap-2 font-semibold">
              <ScrollTextIcon className="size-4 text-primary" aria-hidden />
              Community guidelines
            </h2>
            <ul className="mt-4 grid gap-2.5 text-sm text-muted-foreground">
              {[
                "Be respectful: disagree with ideas, not people.",
                "Share ideas with their reasoning and risk, never as advice.",
                "Label results live, paper or backtested, with their period.",
                "No promotion, paid groups or market manipulation.",
              ].map((rule) => (
                <li key={rule} className="flex gap-2">
                  <ShieldCheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                  {rule}
                </li>
              ))}
            </ul>
            <Link
              to="/community/guidelines"
              className="mt-5 inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
            >
              Read all guidelines
              <ArrowRightIcon className="size-4" aria-hidden />
            </Link>
          </section>
          <section aria-labelledby="join-heading" className="rounded-2xl border bg-card p-6">
            <h2 id="join-heading" className="font-semibold">
              How to join
            </h2>
            <ol className="mt-4 grid gap-4">
              {STEPS.map((step, i) => (
                <li key={step.title} className="flex gap-3">
                  <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-primary/10 text-xs font-semibold text-primary">
                    {i + 1}
                  </span>
                  <span>
                    <span className="block text-sm font-medium">{step.title}</span>
                    <span className="mt-0.5 block text-sm text-muted-foreground">{step.text}</span>
                  </span>
                </li>
              ))}
            </ol>
          </section>
        </aside>
      </div>

      <section className="px-4 pb-20 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-7xl rounded-3xl border bg-sidebar px-6 py-12 text-center sm:px-12">
          <h2 className="text-2xl font-semibold tracking-tight sm:text-3xl">Trade better together</h2>
          <p className="mx-auto mt-3 max-w-xl text-muted-foreground">
            Create a free account to take part. If you already have one, sign in.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
            {signedIn ? (
              <Button asChild size="lg">
                <Link to="/dashboard">Go to Dashboard</Link>
              </Button>
            ) : (
              <>
                <Button asChild size="lg">
                  <Link to="/register">Create Account</Link>
                </Button>
                <Button asChild size="lg" variant="outline">
                  <Link to="/login">Sign In</Link>
                </Button>
              </>
            )}
          </div>
        </div>
      </section>
    </>
  );
}
