import { ChevronDownIcon, SettingsIcon, WalletIcon } from "lucide-react";
import { Link } from "react-router";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/utils";
import { currentAccountOf, useTradingAccounts } from "../api/trading-accounts";
import { useSwitchAccount } from "../hooks/use-switch-account";
import { offersSwitching } from "../lib/trading-accounts";

/** Where "Manage accounts" leads: Settings › Trading accounts. */
export const MANAGE_ACCOUNTS_URL = "/settings?tab=accounts";

/**
 * The header's account menu: the current trading account's name (truncated to the room the
 * header has; under 640 px without its icons, whole in its accessible name and tooltip), and a
 * menu of the accounts, the current one checked, that switches to the one chosen ("Switched to
 * IRA" toasted), with "Manage accounts". Nothing while the user holds one account on a plan that
 * holds one, nor while the list loads or when it cannot be read (the header is no place for that
 * error; Settings › Trading accounts shows it).
 */
export function AccountSwitcher({ className }: { className?: string }) {
  const { data } = useTradingAccounts();
  const { switchTo, pending } = useSwitchAccount();
  const current = currentAccountOf(data);
  if (!data || !current || !offersSwitching(data)) return null;

  const choose = (id: string) => {
    const account = data.accounts.find((a) => a.id === id);
    if (account && !account.current) void switchTo(account);
  };

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <button
          type="button"
          aria-label={`Trading account: ${current.name}`}
          aria-busy={pending || undefined}
          title={current.name}
          data-testid="account-switcher"
          className={cn(
            "flex h-9 min-w-0 items-center gap-1 rounded-md border px-2 text-sm font-medium outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:bg-accent sm:gap-1.5 sm:px-2.5",
            className,
          )}
        >
          <WalletIcon className="hidden size-4 shrink-0 text-muted-foreground sm:block" aria-hidden />
          <span className="max-w-[6rem] min-w-0 truncate sm:max-w-[10rem]">{current.name}</span>
          <ChevronDownIcon className="hidden size-3.5 shrink-0 text-muted-foreground sm:block" aria-hidden />
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64 max-w-[calc(100vw-1.5rem)]">
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">Trading accounts</DropdownMenuLabel>
        <DropdownMenuRadioGroup value={current.id} onValueChange={choose}>
          {data.accounts.map((account) => (
            <DropdownMenuRadioItem key={account.id} value={account.id} disabled={pending} title={account.name}>
              <span className="min-w-0 flex-1 truncate">{account.name}</span>
              {account.withinPlan ? null : <span className="shrink-0 text-xs text-muted-foreground">Beyond your plan</span>}
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={MANAGE_ACCOUNTS_URL}>
            <SettingsIcon aria-hidden />
            Manage accounts
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
