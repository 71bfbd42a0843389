import { describe, expect, it } from "vitest";
import { headingId } from "@/lib/slug";
import { BLOG_CATEGORIES, BLOG_POSTS, findPost } from "./blog";
import { DEPARTMENTS, findOpening, OPENINGS } from "./careers";
import { DOC_PAGES, findDocPage, QUICK_START_GUIDES } from "./docs";
import { findHelpCategory, HELP_ARTICLES, HELP_CATEGORIES, helpArticlesIn } from "./help";
import { SUPPORT_RESPONSE } from "./company";
import { legalDocument } from "./legal";

// The linked pages that must exist (docs/decisions.md#14-no-placeholders).
const BLOG_SLUGS = [
  "ai-powered-market-analysis",
  "options-greeks-guide",
  "market-volatility-patterns",
  "first-options-portfolio",
  "options-risk-management",
  "earnings-season-strategy",
  "technical-analysis-options",
];
const CAREER_SLUGS = ["senior-frontend-engineer", "ml-engineer", "quant-researcher", "devops-engineer", "product-manager", "sdr"];
const HELP_CATEGORY_SLUGS = ["getting-started", "trading-guides", "platform-features", "account-billing"];
const GUIDES = [
  { slug: "account-setup", duration: 5, level: "Beginner" },
  { slug: "trading-signals", duration: 10, level: "Beginner" },
  { slug: "portfolio-setup", duration: 15, level: "Intermediate" },
  { slug: "ai-assistant", duration: 8, level: "Beginner" },
];

const STATIC_ROUTES = new Set([
  "/",
  "/login",
  "/register",
  "/pricing",
  "/about",
  "/track-record",
  "/blog",
  "/careers",
  "/help",
  "/community",
  "/privacy",
  "/terms",
  "/documentation",
  "/api",
  "/community/guidelines",
]);

/** Whether a site path (no query or hash) is a page the router renders. */
function isKnownPath(path: string): boolean {
  if (STATIC_ROUTES.has(path)) return true;
  const parts = path.split("/").filter(Boolean);
  if (parts[0] === "blog" && parts.length === 2) return Boolean(findPost(parts[1]));
  if (parts[0] === "careers" && parts.length === 2) return Boolean(findOpening(parts[1]));
  if (parts[0] === "docs" && parts.length === 2) return Boolean(findDocPage(parts[1]));
  if (parts[0] === "help" && parts.length === 2) return Boolean(findHelpCategory(parts[1]));
  if (parts[0] === "help" && parts.length === 3) return HELP_ARTICLES.some((a) => a.category === parts[1] && a.slug === parts[2]);
  return false;
}

const ALL_PAGES = [
  ...BLOG_POSTS.map((p) => ({ name: `blog/${p.slug}`, load: p.loadBody })),
  ...OPENINGS.map((o) => ({ name: `careers/${o.slug}`, load: o.loadBody })),
  ...HELP_ARTICLES.map((a) => ({ name: `help/${a.category}/${a.slug}`, load: a.loadBody })),
  ...DOC_PAGES.map((d) => ({ name: `docs/${d.slug}`, load: d.loadBody })),
  ...(["privacy", "terms", "community-guidelines"] as const).map((slug) => ({ name: slug, load: legalDocument(slug).loadBody })),
];

describe("content", () => {
  it("has every blog article the site links to, each in a known category", () => {
    expect(BLOG_POSTS.map((p) => p.slug).sort()).toEqual([...BLOG_SLUGS].sort());
    for (const post of BLOG_POSTS) {
      expect(BLOG_CATEGORIES).toContain(post.category);
      expect(post.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(post.readingMinutes).toBeGreaterThanOrEqual(4);
    }
    expect(BLOG_POSTS.filter((p) => p.featured)).toHaveLength(1);
  });

  it("has the six openings, each in a department with a chip", () => {
    expect(OPENINGS.map((o) => o.slug).sort()).toEqual([...CAREER_SLUGS].sort());
    for (const opening of OPENINGS) expect(DEPARTMENTS).toContain(opening.department);
    expect(new Set(OPENINGS.map((o) => o.department))).toEqual(new Set(DEPARTMENTS));
  });

  it("has the four help categories, each with articles", () => {
    expect(HELP_CATEGORIES.map((c) => c.slug)).toEqual(HELP_CATEGORY_SLUGS);
    for (const category of HELP_CATEGORIES) expect(helpArticlesIn(category.slug).length).toBeGreaterThanOrEqual(4);
  });

  it("has the four quick-start guides with their durations and levels, and the errors page", () => {
    expect(QUICK_START_GUIDES.map(({ slug, duration, level }) => ({ slug, duration, level }))).toEqual(GUIDES);
    const errors = findDocPage("errors");
    expect(errors?.kind).toBe("reference");
    const ids = errors?.headings.map((h) => headingId(h).id);
    expect(ids).toEqual(expect.arrayContaining(["validation", "malformed-body", "conflict", "about-blank"]));
  });

  it("has the legal pages with their sections and date", () => {
    const privacy = legalDocument("privacy");
    const terms = legalDocument("terms");
    expect(privacy.headings).toHaveLength(10);
    expect(terms.headings).toHaveLength(14);
    for (const doc of [privacy, terms]) {
      expect(doc.updated).toBe("January 28, 2025");
      expect(doc.headings.at(-1)).toMatch(/Contact us$/);
      doc.headings.forEach((heading, i) => expect(heading.startsWith(`${i + 1}. `)).toBe(true));
    }
  });

  it("says what the legal pages must say", async () => {
    const privacy = await legalDocument("privacy").loadBody();
    const terms = await legalDocument("terms").loadBody();
    expect(privacy).toMatch(/life of your account plus \*\*7 years\*\*/);
    expect(privacy).toMatch(/up to \*\*10 years\*\*/);
    expect(privacy).toMatch(/up to \*\*3 years\*\*/);
    expect(privacy).toMatch(/18 or older/);
    expect(terms).toMatch(/at least \*\*18 years old\*\*/);
    expect(terms).toMatch(/renew automatically/);
    expect(terms).toMatch(/30 days' notice/);
    expect(terms).toMatch(/refunds or credits for partial months/);
    expect(terms).toMatch(/laws of the State of New York/);
    expect(terms).toMatch(/not financial, investment, legal or tax advice/);
  });

  it("loads every page's body: real text, no placeholders, and only links to pages that exist", async () => {
    for (const page of ALL_PAGES) {
      const body = await page.load();
      expect(body.length, page.name).toBeGreaterThan(400);
      expect(body, page.name).not.toMatch(/lorem ipsum|coming soon|\bTODO\b|\bTBD\b|placeholder/i);
      for (const [, href] of body.matchAll(/\]\((\/[^)\s]*)\)/g)) {
        const path = href.split(/[?#]/)[0] || "/";
        expect(isKnownPath(path), `${page.name} links to ${href}`).toBe(true);
      }
    }
  });

  it("teaches the formulas correctly", async () => {
    const greeks = await findPost("options-greeks-guide")!.loadBody();
    expect(greeks).toContain("d1 = [ ln(S/K) + (r − q + σ²/2)·T ] / (σ·√T)");
    expect(greeks).toContain("Put delta  = e^(−qT) · [N(d1) − 1]");
    expect(greeks).toMatch(/Long options always have \*\*positive gamma\*\*/);
    const earnings = await findPost("earnings-season-strategy")!.loadBody();
    expect(earnings).toMatch(/\*\*strike \+ total premium\*\* and \*\*strike − total premium\*\*/);
  });

  it("makes one support promise per plan, the one in company.ts", async () => {
    const plans = await HELP_ARTICLES.find((a) => a.slug === "plans-and-limits")!.loadBody();
    const row = plans.split("\n").find((line) => line.startsWith("| Support response"));
    expect(row?.split("|").map((cell) => cell.trim())).toEqual([
      "",
      "Support response",
      SUPPORT_RESPONSE.free,
      SUPPORT_RESPONSE.pro,
      SUPPORT_RESPONSE.premium,
      "",
    ]);
    // Nothing else promises another time.
    const bodies = await Promise.all(ALL_PAGES.map(async (page) => ({ name: page.name, text: await page.load() })));
    for (const { name, text } of bodies)
      expect(`${name}: ${text}`).not.toMatch(/(?:reply|respond|answer)\w* (?:with)?in \d+[–-]?\d* hours/i);
  });
});
