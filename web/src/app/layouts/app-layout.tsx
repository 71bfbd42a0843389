import { LogOutIcon, MenuIcon, SparklesIcon } from "lucide-react";
import { Suspense, useState } from "react";
import { Link, Outlet, useLocation, useNavigate } from "react-router";
import { LogoMark } from "@/components/logo";
import { SidebarNav } from "@/components/sidebar-nav";
import { Spinner } from "@/components/spinner";
import { ThemeToggle } from "@/components/theme-toggle";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/components/ui/sheet";
import { useUser } from "@/features/auth/api/get-me";
import { ConfirmEmailBanner } from "@/features/auth/components/confirm-email-banner";
import { useLogout } from "@/features/auth/api/logout";
import { displayName, initials, planLabel } from "@/features/auth/lib/plan";
import { useActiveSignalCount } from "@/features/signals/hooks/use-active-signal-count";
import { AccountSwitcher } from "@/features/trading-accounts/components/account-switcher";
import type { User } from "@/lib/api/models";
import { useTradingAccountEpoch } from "@/lib/api/trading-accounts";
import { useAutoUpdateSignals } from "@/lib/api/user-settings";
import { LIVE_EVENTS_URL, type LiveTopic, useLiveEvents } from "@/lib/live-events";
import { toast } from "@/lib/toast";
import { HeaderBell } from "./header-bell";
import { MarketDataBadge } from "./market-data-badge";
import { buildNav } from "./nav";

function PlanCard({ user }: { user: User }) {
  const label = planLabel(user, Date.now());
  const trialing = user.subscriptionStatus === "trialing";
  const upgrade = user.subscriptionPlan === "free" || trialing;
  const note = trialing
    ? "Choose a plan to keep Pro features when the trial ends."
    : user.subscriptionPlan === "free"
      ? "More signals, full backtests and AI recommendations."
      : user.subscriptionStatus === "past_due"
        ? "Your last payment did not go through."
        : "Billing, invoices and changes of plan.";
  return (
    <div className="rounded-lg border bg-card p-3.5 shadow-xs">
      <div className="flex items-center gap-2 text-sm font-semibold">
        <SparklesIcon className="size-4 text-primary" aria-hidden />
        <span data-testid="plan-label">{label}</span>
      </div>
      <p className="mt-1 text-xs text-muted-foreground">{note}</p>
      <Button asChild size="sm" variant={upgrade ? "default" : "outline"} className="mt-3 w-full">
        {upgrade ? <Link to="/pricing">Upgrade to Pro</Link> : <Link to="/settings?tab=subscription">Manage subscription</Link>}
      </Button>
    </div>
  );
}

function SidebarBody({ user, onNavigate }: { user: User; onNavigate?: () => void }) {
  const location = useLocation();
  const activeSignals = useActiveSignalCount();
  const sections = buildNav(location.pathname, activeSignals);
  const home = location.pathname === "/settings" ? "/dashboard" : "/";
  return (
    <>
      <div className="flex h-14 shrink-0 items-center border-b border-sidebar-border px-5">
        <Link
          to={home}
          onClick={onNavigate}
          className="inline-flex items-center gap-2 rounded-md text-[1.05rem] font-semibold tracking-tight outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <LogoMark className="size-6" />
          Strikeline
        </Link>
      </div>
      <div className="flex-1 overflow-y-auto px-3 py-5">
        <SidebarNav sections={sections} onNavigate={onNavigate} />
      </div>
      <div className="shrink-0 p-3">
        <PlanCard user={user} />
      </div>
    </>
  );
}

/** The account menu; under 640 px it also holds "Log out" (the header's own button makes room for the account switcher there). */
function UserMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.username;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          className="flex items-center gap-2.5 rounded-full p-0.5 outline-none focus-visible:ring-2 focus-visible:ring-ring sm:rounded-md sm:py-1 sm:pr-2 sm:pl-1 sm:hover:bg-accent"
        >
          <span
            aria-hidden
            className="flex size-8 items-center justify-center rounded-full bg-primary/12 text-xs font-semibold text-primary-strong"
          >
            {initials(user)}
          </span>
          <span className="hidden text-left leading-tight sm:block">
            <span className="block text-sm font-medium">{displayName(user)}</span>
            <span className="block text-xs text-muted-foreground">{planLabel(user, Date.now())}</span>
          </span>
          <span className="sr-only">Account menu</span>
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="font-normal">
          <p className="truncate text-sm font-medium">{name}</p>
          <p className="truncate text-xs text-muted-foreground">{user.email}</p>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/settings">Settings</Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/preferences">Investment preferences</Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/pricing">Plans and pricing</Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onLogout}>
          <LogOutIcon aria-hidden />
          Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function PageFallback() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner />
    </div>
  );
}

const NO_PAUSE: readonly LiveTopic[] = [];
const SIGNALS_PAUSED: readonly LiveTopic[] = ["signals"];

/** The signed-in shell: sidebar on desktop, a drawer under 768 px, and the top bar. */
export function AppLayout() {
  const { user } = useUser();
  const navigate = useNavigate();
  const logoutMutation = useLogout();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // Live updates for every signed-in page (the nav badge and bell need them everywhere); the
  // signals' paused while "Auto-update Signals" is off.
  const autoUpdateSignals = useAutoUpdateSignals();
  useLiveEvents(LIVE_EVENTS_URL, autoUpdateSignals ? NO_PAUSE : SIGNALS_PAUSED);
  // Goes up when the current trading account changes: the page below is keyed on it, so what a
  // page kept from the previous account (a form's values, the optimiser's proposal) starts over.
  const accountEpoch = useTradingAccountEpoch({ enabled: user != null });

  if (!user) return null;

  const handleLogout = async () => {
    try {
      await logoutMutation.mutateAsync();
    } catch {
      toast({
        variant: "destructive",
        title: "Logout failed",
        description: "There was an error logging out. Please try again.",
      });
      return;
    }
    toast({ title: "Logged out successfully" });
    navigate("/", { replace: true });
  };

  return (
    <div className="min-h-dvh bg-background">
      <aside className="fixed inset-y-0 left-0 z-30 hidden w-60 flex-col border-r border-sidebar-border bg-sidebar md:flex">
        <SidebarBody user={user} />
      </aside>

      <Sheet open={drawerOpen} onOpenChange={setDrawerOpen}>
        <SheetContent data-testid="mobile-drawer">
          <SheetTitle className="sr-only">Navigation</SheetTitle>
          <SheetDescription className="sr-only">Pages of Strikeline</SheetDescription>
          <SidebarBody user={user} onNavigate={() => setDrawerOpen(false)} />
        </SheetContent>
      </Sheet>

      <div className="flex min-h-dvh flex-col md:pl-60">
        <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b bg-background/85 px-3 backdrop-blur supports-[backdrop-filter]:bg-background/70 sm:px-4 md:px-8">
          <Button variant="ghost" size="icon" className="md:hidden" aria-expanded={drawerOpen} onClick={() => setDrawerOpen(true)}>
            <MenuIcon className="size-5" />
            <span className="sr-only">Open menu</span>
          </Button>
          <Link to="/" className="inline-flex items-center gap-2 font-semibold tracking-tight md:hidden">
            <LogoMark className="size-6" />
            <span className="sr-only sm:not-sr-only">Strikeline</span>
          </Link>
          <div className="ml-auto flex min-w-0 items-center gap-1 sm:gap-1.5">
            <MarketDataBadge />
            <AccountSwitcher />
            <HeaderBell />
            <ThemeToggle />
            <div className="mx-1 hidden h-6 w-px bg-border sm:block" />
            <UserMenu user={user} onLogout={() => void handleLogout()} />
            <Button
              variant="ghost"
              size="icon"
              className="hidden text-muted-foreground hover:text-foreground sm:inline-flex"
              onClick={handleLogout}
              disabled={logoutMutation.isPending}
            >
              <LogOutIcon className="size-[1.15rem]" />
              <span className="sr-only">Log out</span>
            </Button>
          </div>
        </header>
        <ConfirmEmailBanner user={user} />
        <main className="flex-1 px-4 py-6 sm:px-6 md:px-8 md:py-8">
          <div className="mx-auto w-full max-w-7xl">
            <Suspense fallback={<PageFallback />}>
              <Outlet key={accountEpoch} />
            </Suspense>
          </div>
        </main>
      </div>
    </div>
  );
}
