import { lazy, Suspense } from "react";
import { Navigate, Route, Routes, useSearchParams } from "react-router";
import { FullPageSpinner } from "@/components/spinner";
import { useUser } from "@/features/auth/api/get-me";
import { useMoneyDisplay } from "@/lib/money-display";
import { safeNextPath } from "@/lib/redirect";
import { PublicLayout } from "./layouts/public-layout";
// The landing page is part of the entry chunk: it is the page most visitors open first, and
// a lazy chunk would cost a round trip after the session check. Every other route is lazy.
import Landing from "./routes/landing";

// A signed-in user's saved theme and display currency, applied app-wide (renders nothing).
const UserSettingsSync = lazy(() =>
  import("@/features/settings/components/user-settings-sync").then((m) => ({ default: m.UserSettingsSync })),
);

// The signed-in shell (sidebar, menus, dialogs) is its own chunk: visitors never load it.
const AppLayout = lazy(() => import("./layouts/app-layout").then((m) => ({ default: m.AppLayout })));

const Login = lazy(() => import("./routes/login"));
const Register = lazy(() => import("./routes/register"));
const NotFound = lazy(() => import("./routes/not-found"));
const VerifyEmail = lazy(() => import("./routes/verify-email"));
const ForgotPassword = lazy(() => import("./routes/forgot-password"));
const ResetPassword = lazy(() => import("./routes/reset-password"));
const Dashboard = lazy(() => import("./routes/dashboard"));
const Signals = lazy(() => import("./routes/signals"));
const News = lazy(() => import("./routes/news"));
const Backtest = lazy(() => import("./routes/backtest"));
const StrategyBuilder = lazy(() => import("./routes/strategy-builder"));
const CustomStrategies = lazy(() => import("./routes/custom-strategies"));
const StockOptions = lazy(() => import("./routes/stock-options"));
const Portfolio = lazy(() => import("./routes/portfolio"));
const Settings = lazy(() => import("./routes/settings"));
const Preferences = lazy(() => import("./routes/preferences"));
const Pricing = lazy(() => import("./routes/pricing"));
const Subscribe = lazy(() => import("./routes/subscribe"));
const About = lazy(() => import("./routes/about"));
const TrackRecord = lazy(() => import("./routes/track-record"));
const Blog = lazy(() => import("./routes/blog"));
const Careers = lazy(() => import("./routes/careers"));
const Help = lazy(() => import("./routes/help"));
const Community = lazy(() => import("./routes/community"));
const Privacy = lazy(() => import("./routes/privacy"));
const Terms = lazy(() => import("./routes/terms"));
const Documentation = lazy(() => import("./routes/documentation"));
const ApiReference = lazy(() => import("./routes/api"));
const BlogArticle = lazy(() => import("./routes/blog-article"));
const CareerOpening = lazy(() => import("./routes/career-opening"));
const HelpCategory = lazy(() => import("./routes/help-category"));
const HelpArticle = lazy(() => import("./routes/help-article"));
const CommunityGuidelines = lazy(() => import("./routes/community-guidelines"));
const Doc = lazy(() => import("./routes/doc"));

/** Public information pages, reachable signed in or out. */
const INFO_ROUTES = [
  { path: "/about", Page: About },
  { path: "/track-record", Page: TrackRecord },
  { path: "/blog", Page: Blog },
  { path: "/careers", Page: Careers },
  { path: "/help", Page: Help },
  { path: "/community", Page: Community },
  { path: "/privacy", Page: Privacy },
  { path: "/terms", Page: Terms },
  { path: "/documentation", Page: Documentation },
  { path: "/api", Page: ApiReference },
  // The pages other pages link to, which must exist (docs/decisions.md#14-no-placeholders); unknown slugs show 404.
  { path: "/blog/:slug", Page: BlogArticle },
  { path: "/careers/:slug", Page: CareerOpening },
  { path: "/help/:category", Page: HelpCategory },
  { path: "/help/:category/:article", Page: HelpArticle },
  { path: "/community/guidelines", Page: CommunityGuidelines },
  { path: "/docs/:slug", Page: Doc },
];

/**
 * The pages emailed links open, the same signed in or out. They sit outside the two route
 * tables, so a page stays mounted when its own request changes the session (a password reset
 * ends this browser's session too, and the page must still say so).
 */
const ACCOUNT_LINK_ROUTES = [
  { path: "/verify-email", Page: VerifyEmail },
  { path: "/forgot-password", Page: ForgotPassword },
  { path: "/reset-password", Page: ResetPassword },
];

/**
 * A signed-in user on /login or /register: on to the page that sent them there (`?next=`, a
 * path on this site), else the dashboard. Signing up from a paid plan continues to /subscribe.
 */
function SignedInRedirect() {
  const [params] = useSearchParams();
  return <Navigate to={safeNextPath(params.get("next"))} replace />;
}

/** The signed-in route table: / and /dashboard are the dashboard. Unknown paths show 404. */
export function SignedInRoutes() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        <Route path="/" element={<Dashboard />} />
        <Route path="/dashboard" element={<Dashboard />} />
        <Route path="/signals" element={<Signals />} />
        <Route path="/news" element={<News />} />
        <Route path="/backtest" element={<Backtest />} />
        <Route path="/strategy-builder" element={<StrategyBuilder />} />
        <Route path="/custom-strategies" element={<CustomStrategies />} />
        <Route path="/stocks/:symbol/options" element={<StockOptions />} />
        <Route path="/portfolio" element={<Portfolio />} />
        <Route path="/settings" element={<Settings />} />
        <Route path="/preferences" element={<Preferences />} />
        <Route path="/pricing" element={<Pricing />} />
        <Route path="/subscribe" element={<Subscribe />} />
      </Route>
      <Route element={<PublicLayout />}>
        {INFO_ROUTES.map(({ path, Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
      </Route>
      {/* A signed-in user has nothing to do on the sign-in pages. */}
      <Route path="/login" element={<SignedInRedirect />} />
      <Route path="/register" element={<SignedInRedirect />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  );
}

/** The signed-out route table. Unknown paths show the landing page. */
export function SignedOutRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<Login />} />
      <Route path="/register" element={<Register />} />
      <Route element={<PublicLayout />}>
        <Route path="/" element={<Landing />} />
        <Route path="/pricing" element={<Pricing />} />
        {INFO_ROUTES.map(({ path, Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={<Landing />} />
      </Route>
    </Routes>
  );
}

/**
 * Chooses the route table from the session (the emailed links' pages are in neither); a
 * centred spinner while it loads. Signed in, the user's settings (theme, display currency) are
 * applied by `UserSettingsSync`; a change of the display currency re-renders every page (money
 * is formatted during render).
 */
export function AppRoutes() {
  const { user, isLoading } = useUser();
  useMoneyDisplay();
  if (isLoading) return <FullPageSpinner />;
  return (
    <>
      {user ? (
        <Suspense fallback={null}>
          <UserSettingsSync />
        </Suspense>
      ) : null}
      <Routes>
        {ACCOUNT_LINK_ROUTES.map(({ path, Page }) => (
          <Route key={path} path={path} element={<Page />} />
        ))}
        <Route path="*" element={user ? <SignedInRoutes /> : <SignedOutRoutes />} />
      </Routes>
    </>
  );
}
