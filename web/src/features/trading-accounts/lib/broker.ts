import { z } from "zod";
import { ApiError } from "@/lib/api/client";
import { BROKER_ENDPOINTS, type BrokerEndpoint } from "@/lib/api/enums";
import type { AccountBroker, BrokerConnectionInput, TradingAccount, TradingAccounts } from "@/lib/api/models";

/** "Paper endpoint", "Live endpoint". */
export function endpointLabel(endpoint: BrokerEndpoint): string {
  return endpoint === "live" ? "Live endpoint" : "Paper endpoint";
}

/** Whether the account's orders go to Alpaca (rather than the built-in paper broker). */
export function isAlpaca(broker: AccountBroker): boolean {
  return broker.name === "alpaca";
}

/** Whether the account's orders go to Alpaca's live endpoint: real orders with real money. */
export function tradesLive(broker: AccountBroker): boolean {
  return broker.name === "alpaca" && broker.endpoint === "live";
}

/**
 * The account list's "Broker" line: "Paper broker (built in)", or "Alpaca · Live endpoint ·
 * key …ABCD" (the endpoint and the key id's last four characters as the server gives them).
 */
export function brokerLabel(broker: AccountBroker): string {
  if (broker.name === "paper") return "Paper broker (built in)";
  const parts = ["Alpaca"];
  if (broker.endpoint) parts.push(endpointLabel(broker.endpoint));
  if (broker.keyHint) parts.push(`key …${broker.keyHint}`);
  return parts.join(" · ");
}

/**
 * Whether the user's plan trades through Alpaca (Premium). The accounts list says the plan only
 * as the number of accounts it holds, and Premium is the one plan that holds more than one
 * (docs/accounts.md). The server checks again (403), and its answer wins.
 */
export function connectsBrokers(list: Pick<TradingAccounts, "maxAccounts"> | undefined): boolean {
  return (list?.maxAccounts ?? 1) > 1;
}

/** The Alpaca form's fields, as typed. */
export type BrokerFormValues = {
  endpoint: BrokerEndpoint;
  keyId: string;
  secretKey: string;
};

/** The form's fields, named as the request (and so the server's field errors) name them. */
export const BROKER_FIELDS = ["endpoint", "keyId", "secretKey"] as const satisfies readonly (keyof BrokerFormValues)[];

/** The form's starting values: the account's endpoint when it is connected already (else paper), and no keys (the secret is never shown). */
export function brokerFormValues(account: TradingAccount): BrokerFormValues {
  return {
    endpoint: account.broker.name === "alpaca" && account.broker.endpoint ? account.broker.endpoint : "paper",
    keyId: "",
    secretKey: "",
  };
}

const KEY_ID = /^[A-Za-z0-9]{8,64}$/;

/**
 * The server's rules, checked before sending (it checks them again, and its answer wins): a key
 * id of 8 to 64 letters and digits, a secret key of 16 to 128 characters without spaces. What
 * is pasted around a key (spaces, a line break) is not part of it.
 */
export const brokerFormSchema = z
  .object({
    endpoint: z.enum(BROKER_ENDPOINTS, { message: "Choose an endpoint" }),
    keyId: z.string(),
    secretKey: z.string(),
  })
  .superRefine((values, ctx) => {
    const keyId = values.keyId.trim();
    if (!keyId) ctx.addIssue({ code: "custom", path: ["keyId"], message: "Enter the key ID" });
    else if (!KEY_ID.test(keyId)) ctx.addIssue({ code: "custom", path: ["keyId"], message: "Use 8 to 64 letters and digits" });

    const secret = values.secretKey.trim();
    const length = [...secret].length;
    if (!secret) ctx.addIssue({ code: "custom", path: ["secretKey"], message: "Enter the secret key" });
    else if (/\s/.test(secret)) ctx.addIssue({ code: "custom", path: ["secretKey"], message: "Leave out spaces" });
    else if (length < 16 || length > 128) ctx.addIssue({ code: "custom", path: ["secretKey"], message: "Use 16 to 128 characters" });
  });

/** The request body of PUT /api/accounts/{id}/broker. */
export function toBrokerConnection(values: BrokerFormValues): BrokerConnectionInput {
  return { broker: "alpaca", endpoint: values.endpoint, keyId: values.keyId.trim(), secretKey: values.secretKey.trim() };
}

/**
 * Why the server refused a change of broker, in its words: the problem's detail, else its first
 * error's message (a 409 says there which it is: no credentials key, or standing orders), else
 * its title; `fallback` for anything else.
 */
export function brokerRefusal(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError) || !error.problem) return fallback;
  return error.problem.detail || error.fieldErrors[0]?.message || error.problem.title || fallback;
}
