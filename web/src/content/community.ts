/** The community's categories and the sample threads that show what each is for. */
export type CommunityCategory = {
  slug: string;
  name: string;
  description: string;
  /** What belongs in the category. */
  examples: string[];
};

export const COMMUNITY_CATEGORIES: CommunityCategory[] = [
  {
    slug: "general",
    name: "General Discussion",
    description: "Introductions, markets in general, and anything that does not fit elsewhere.",
    examples: ["Introduce yourself and how you trade", "Books and courses worth your time"],
  },
  {
    slug: "strategy",
    name: "Strategy Sharing",
    description: "Trade ideas and the reasoning behind them, with risk stated up front.",
    examples: ["How you size straddles around earnings", "Exit rules that worked, and ones that did not"],
  },
  {
    slug: "education",
    name: "Education & Learning",
    description: "Questions about options mechanics, the Greeks, volatility and risk, at any level.",
    examples: ["Why did my call lose value when the stock went up?", "Delta as a probability: when does it work?"],
  },
  {
    slug: "market-analysis",
    name: "Market Analysis",
    description: "Volatility, sectors, events and the market backdrop that affects options prices.",
    examples: ["Implied versus realized volatility this earnings season", "Reading the VIX term structure"],
  },
  {
    slug: "platform-support",
    name: "Platform Support",
    description: "How to use Strikeline's features, tips, and feedback for the team.",
    examples: ["Setting preferences for smaller accounts", "Using the API from a spreadsheet"],
  },
  {
    slug: "success-stories",
    name: "Success Stories",
    description: "Lessons from trades and habits that worked, with results labelled live, paper or backtested.",
    examples: ["Three months of paper trading before going live", "What a trading journal taught me"],
  },
];

export type SampleThread = {
  category: string;
  title: string;
  excerpt: string;
  /** Where the topic is covered on the site. */
  related: { label: string; href: string };
};

/** Sample threads written by the Strikeline team to show what each category is for. Not member posts. */
export const SAMPLE_THREADS: SampleThread[] = [
  {
    category: "Education & Learning",
    title: "Why did my call lose value when the stock went up?",
    excerpt:
      "Bought a call the day before earnings; the stock rose 3% and the call fell 30%. The usual answer is IV crush: implied volatility fell more than delta added.",
    related: { label: "Trading earnings season", href: "/blog/earnings-season-strategy" },
  },
  {
    category: "Strategy Sharing",
    title: "Sizing long options at 1–2% of capital: how it works in practice",
    excerpt: "With a $10,000 account and a 2% limit, anything over $2.00 per share is out. That rules out a lot, and that is the point.",
    related: { label: "Options risk management", href: "/blog/options-risk-management" },
  },
  {
    category: "Market Analysis",
    title: "Implied vs. historical volatility before earnings",
    excerpt:
      "Comparing the at-the-money straddle's implied move with the stock's last eight earnings moves before deciding whether to buy volatility.",
    related: { label: "Volatility patterns", href: "/blog/market-volatility-patterns" },
  },
  {
    category: "Platform Support",
    title: "Setting preferences for a small account",
    excerpt:
      "Capital $2,500, max position $50: the allocation summary shows 50 positions at 2.0% risk per trade. Which strategies suit options that cheap?",
    related: { label: "Investment preferences", href: "/help/getting-started/investment-preferences" },
  },
  {
    category: "Success Stories",
    title: "Three months of paper trading before going live",
    excerpt:
      "Running the plan on automated paper positions first showed which strategies fit my schedule, and that my exits were too slow.",
    related: { label: "Your first options portfolio", href: "/blog/first-options-portfolio" },
  },
  {
    category: "Education & Learning",
    title: "Delta, gamma, theta, vega: which one matters most for a straddle?",
    excerpt: "A straddle is close to delta-neutral, so gamma and vega do the work, and theta is the rent you pay while waiting.",
    related: { label: "The options Greeks", href: "/blog/options-greeks-guide" },
  },
];
