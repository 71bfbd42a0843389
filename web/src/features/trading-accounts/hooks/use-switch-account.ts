import { errorMessage } from "@/lib/api/client";
import type { TradingAccount } from "@/lib/api/models";
import { toast } from "@/lib/toast";
import { useSwitchTradingAccount } from "../api/trading-accounts";

/**
 * Switching to an account, as the header's menu and the accounts list both do it: "Switched to
 * IRA" once the app shows it, or the server's reason. `switchTo` never rejects.
 */
export function useSwitchAccount() {
  const mutation = useSwitchTradingAccount();
  const switchTo = async (account: Pick<TradingAccount, "id" | "name">): Promise<void> => {
    try {
      await mutation.mutateAsync(account.id);
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Account Not Switched",
        description: errorMessage(error, `Failed to switch to ${account.name}. Please try again.`),
      });
      return;
    }
    toast({
      title: `Switched to ${account.name}`,
      description: "The portfolio, new positions and your trading preferences are this account's.",
    });
  };
  return { switchTo, pending: mutation.isPending, switchingTo: mutation.isPending ? mutation.variables : undefined };
}
