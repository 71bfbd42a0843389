import { z } from "zod";
import { RISK_TOLERANCES, type RiskTolerance, STRATEGIES, type Strategy } from "@/lib/api/enums";
import type { NewTradingAccount, PlanInfo, TradingAccount, TradingAccounts, TradingAccountUpdate } from "@/lib/api/models";
import { formatCount } from "@/lib/format";
import { checkSizes, orderStrategies } from "@/lib/investment-sizes";

export { MAX_AMOUNT, orderStrategies, parseAmount, toggleStrategy } from "@/lib/investment-sizes";

/** The account form's fields, as typed (amounts stay text until sent). */
export type AccountFormValues = {
  name: string;
  investmentCapital: string;
  maxPositionSize: string;
  riskTolerance: RiskTolerance;
  /** In the order of STRATEGIES. */
  preferredStrategies: Strategy[];
  automate: boolean;
};

/** The form's fields, named as the request (and so the server's field errors) name them. */
export const ACCOUNT_FIELDS = [
  "name",
  "investmentCapital",
  "maxPositionSize",
  "riskTolerance",
  "preferredStrategies",
  "automate",
] as const satisfies readonly (keyof AccountFormValues)[];

/** A new account's starting values, the server's defaults (docs/accounts.md): $1,000, $100 a position, medium risk, Momentum and Breakout, automation on. */
export const NEW_ACCOUNT_VALUES: AccountFormValues = {
  name: "",
  investmentCapital: "1000",
  maxPositionSize: "100",
  riskTolerance: "medium",
  preferredStrategies: ["Momentum", "Breakout"],
  automate: true,
};

/** The form's values from a stored account, to edit it. */
export function valuesFromAccount(account: TradingAccount): AccountFormValues {
  return {
    name: account.name,
    investmentCapital: String(account.investmentCapital),
    maxPositionSize: String(account.maxPositionSize),
    riskTolerance: account.riskTolerance,
    preferredStrategies: orderStrategies(account.preferredStrategies),
    automate: account.automate,
  };
}

/** The longest name the server takes, after trimming. */
export const MAX_NAME_LENGTH = 40;

// Control characters (C0, DEL and C1), which a name may not hold.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The server's rules, checked before sending (it checks them again, and its answer wins): a
 * name of 1 to 40 characters without control characters; both amounts more than 0, at most
 * two decimals and $1,000,000,000; the position size at most the capital. A taken name is
 * only known to the server (409 on `name`).
 */
export const accountFormSchema = z
  .object({
    name: z.string(),
    investmentCapital: z.string(),
    maxPositionSize: z.string(),
    riskTolerance: z.enum(RISK_TOLERANCES, { message: "Choose a risk tolerance" }),
    preferredStrategies: z.array(z.enum(STRATEGIES)),
    automate: z.boolean(),
  })
  .superRefine((values, ctx) => {
    const name = values.name.trim();
    if (!name) ctx.addIssue({ code: "custom", path: ["name"], message: "Enter a name" });
    else if ([...name].length > MAX_NAME_LENGTH)
      ctx.addIssue({ code: "custom", path: ["name"], message: `Use at most ${MAX_NAME_LENGTH} characters` });
    else if (CONTROL.test(name))
      ctx.addIssue({ code: "custom", path: ["name"], message: "Use letters, digits, spaces and punctuation only" });
    checkSizes(values, ctx);
  });

/** The request body of POST /api/accounts: every field, so nothing falls back to a default unseen. */
export function toNewAccount(values: AccountFormValues): NewTradingAccount {
  return {
    name: values.name.trim(),
    investmentCapital: Number(values.investmentCapital.trim()),
    maxPositionSize: Number(values.maxPositionSize.trim()),
    riskTolerance: values.riskTolerance,
    preferredStrategies: orderStrategies(values.preferredStrategies),
    automate: values.automate,
  };
}

/** The request body of PATCH /api/accounts/{id}: the form holds every field, so all are sent. */
export function toAccountUpdate(values: AccountFormValues): TradingAccountUpdate {
  return toNewAccount(values);
}

/** How many accounts the Premium plan holds, from the plan catalogue (undefined while it is not read). */
export function premiumAccounts(plans: readonly PlanInfo[] | undefined): number | undefined {
  return plans?.find((plan) => plan.id === "premium")?.tradingAccounts;
}

/**
 * Whether the header offers a choice of account: not while the user holds one account on a plan
 * that holds one (nothing to switch to, nothing to open), nor before the list is read.
 */
export function offersSwitching(list: TradingAccounts | undefined): boolean {
  const accounts = list?.accounts ?? [];
  if (accounts.length === 0) return false;
  return !(list?.maxAccounts === 1 && accounts.length === 1);
}

/** "1 account", "3 accounts". */
export function accountCount(count: number): string {
  return `${formatCount(count)} ${count === 1 ? "account" : "accounts"}`;
}
