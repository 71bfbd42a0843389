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
  /** Phone support is for Premium subscribers. */
  phone: "+1 (646) 555-0142",
  supportHours: "Monday to Friday, 9AM–6PM ET",
  /** How fast email support answers during support hours. */
  emailResponse: "2–4 hours",
  /** How fast the contact forms are answered. */
  formResponse: "24 hours",
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
