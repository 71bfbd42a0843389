/**
 * How fast support answers, by plan: the one promise every page makes, in clock hours. The same
 * figures as the server's plan catalogue (`supportResponse` in GET /api/plans, shown on
 * /pricing) and the plans article (help/account-billing/plans-and-limits.md); tests hold them
 * together.
 */
export const SUPPORT_RESPONSE = { free: "48 hours", pro: "12 hours", premium: "24/7" } as const;

/** "48 hours (12 hours on Pro, around the clock on Premium)": what follows "within". */
export const SUPPORT_RESPONSE_TEXT = `${SUPPORT_RESPONSE.free} (${SUPPORT_RESPONSE.pro} on Pro, around the clock on Premium)`;

/**
 * Static company facts: company facts and contact details are kept in this one content file
 * (docs/decisions.md#13-honest-figures). Everything a page says about the company itself comes
 * from here; figures about the platform come from the server (GET /api/public/stats).
 */
export const COMPANY = {
  name: "Strikeline",
  legalName: "Strikeline, Inc.",
  founded: 2023,
  headquarters: "New York, NY",
  teamSize: "50+",
  countries: 12,
  governingLaw: "the State of New York",
  minimumAge: 18,
  priceChangeNoticeDays: 30,
  address: ["Strikeline, Inc.", "Attn: Legal", "100 Broad Street, 12th Floor", "New York, NY 10004", "United States"],
  email: {
    support: "support@strikeline.com",
    privacy: "privacy@strikeline.com",
    legal: "legal@strikeline.com",
    careers: "careers@strikeline.com",
  },
  /** How fast email support answers: the plan's promise (`SUPPORT_RESPONSE`). */
  emailResponse: SUPPORT_RESPONSE_TEXT,
  /** How fast the contact forms are answered: the same promise. */
  formResponse: SUPPORT_RESPONSE_TEXT,
} as const;

export type TeamMember = { name: string; role: string; bio: string; initials: string };

/** The leadership team shown on the About page. */
export const TEAM: TeamMember[] = [
  {
    name: "Maya Chen",
    role: "Co-founder & CEO",
    initials: "MC",
    bio: "Spent eight years making markets in equity options before starting Strikeline to give individual traders the tools she used on the desk.",
  },
  {
    name: "Daniel Okafor",
    role: "Co-founder & CTO",
    initials: "DO",
    bio: "Built low-latency market-data systems at two exchanges. Leads the platform, the API and the people who keep both fast and correct.",
  },
  {
    name: "Priya Raman",
    role: "Head of Quantitative Research",
    initials: "PR",
    bio: "PhD in statistics. Designs and tests the signal strategies and insists that every published figure names its sample and period.",
  },
  {
    name: "Lucas Moreau",
    role: "Head of Product",
    initials: "LM",
    bio: "Former retail trader and product lead at a brokerage app. Owns the dashboard, the education content and what new traders see first.",
  },
];
