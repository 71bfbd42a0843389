import type { BrokerConnectionInput, NewTradingAccount, TradingAccount, TradingAccounts, TradingAccountUpdate } from "@/lib/api/models";
import { jsonResponse, mockFetch } from "./utils";

let seq = 0;
const uuid = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, "0")}`;

/** One trading account as GET /api/accounts lists it: "Main", with the first account's defaults (the paper broker). */
export function makeTradingAccount(overrides: Partial<TradingAccount> = {}): TradingAccount {
  seq += 1;
  return {
    id: uuid(seq),
    name: "Main",
    current: false,
    automate: true,
    ordersHalted: false,
    investmentCapital: 1000,
    cash: overrides.investmentCapital ?? 1000,
    maxPositionSize: 100,
    riskTolerance: "medium",
    preferredStrategies: ["Momentum", "Breakout"],
    withinPlan: true,
    broker: { name: "paper" },
    createdAt: "2026-11-20T10:00:00Z",
    ...overrides,
  };
}

/** GET /api/accounts: `accounts` (the first current unless one says otherwise) on a plan that holds `maxAccounts`. */
export function makeTradingAccounts(
  accounts: TradingAccount[] = [makeTradingAccount({ current: true })],
  maxAccounts = 1,
): TradingAccounts {
  const withCurrent = accounts.some((a) => a.current) ? accounts : accounts.map((a, i) => (i === 0 ? { ...a, current: true } : a));
  return { accounts: withCurrent, maxAccounts };
}

type Handler = (url: string, init: RequestInit) => Response | Promise<Response> | undefined;

/** The message the server answers a second account with on a plan that holds one (403). */
export const PREMIUM_REFUSAL = "Your plan holds one trading account. Upgrade to Premium to open more.";
/** The message the server answers a broker connection with below Premium (403). */
export const BROKER_PLAN_REFUSAL = "Trading through Alpaca needs the Premium plan.";
/** The message the server answers a change of broker with while the account has standing orders (409). */
export const STANDING_ORDERS_REFUSAL = "The account has standing orders. Cancel them or wait for them to fill before changing its broker.";
/** The message the server answers a delete of the current account with (409 on `id`). */
export const CURRENT_REFUSAL = "Main is your current account. Switch to another account before deleting it.";

/**
 * The trading accounts as the server keeps them: GET, POST, PATCH and DELETE /api/accounts(/{id}),
 * PUT /api/accounts/current and PUT and DELETE /api/accounts/{id}/broker, with the server's
 * refusals (403 on a one-account plan, 409 on a taken name, at the plan's number and on deleting
 * the current account; 403 on connecting a broker below Premium, 422 on a key that breaks the
 * rules). `extra` answers first; anything else is a 404 problem.
 */
export function tradingAccountsServer(initial: TradingAccounts, extra: Handler = () => undefined) {
  let state = initial;
  const problem = (status: number, title: string, detail: string, errors?: { field: string; message: string }[]) =>
    jsonResponse({ type: "about:blank", title, status, detail, ...(errors ? { errors } : {}) }, status);
  const fetchMock = mockFetch((url, init) => {
    const answer = extra(url, init);
    if (answer) return answer;
    const method = init.method ?? "GET";
    if (url === "/api/accounts" && method === "GET") return jsonResponse(state);
    if (url === "/api/accounts" && method === "POST") {
      const body = JSON.parse(String(init.body)) as NewTradingAccount;
      if (state.maxAccounts === 1) return problem(403, "Forbidden", PREMIUM_REFUSAL);
      if (state.accounts.some((a) => a.name.toLowerCase() === body.name.toLowerCase())) {
        return problem(409, "Conflict", "The name is taken.", [
          { field: "name", message: `You already have an account named ${body.name}` },
        ]);
      }
      if (state.accounts.length >= state.maxAccounts) {
        return problem(409, "Conflict", `Your plan holds ${state.maxAccounts} accounts.`, [
          { field: "body", message: "The plan's accounts are held" },
        ]);
      }
      const account = makeTradingAccount({
        name: body.name,
        investmentCapital: body.investmentCapital ?? 1000,
        maxPositionSize: body.maxPositionSize ?? 100,
        riskTolerance: body.riskTolerance ?? "medium",
        preferredStrategies: body.preferredStrategies ?? ["Momentum", "Breakout"],
        automate: body.automate ?? true,
      });
      state = { ...state, accounts: [...state.accounts, account] };
      return jsonResponse(account, 201);
    }
    if (url === "/api/accounts/current" && method === "PUT") {
      const { id } = JSON.parse(String(init.body)) as { id: string };
      if (!state.accounts.some((a) => a.id === id)) return problem(404, "Not Found", "No such account of yours.");
      state = { ...state, accounts: state.accounts.map((a) => ({ ...a, current: a.id === id })) };
      return jsonResponse(state.accounts.find((a) => a.id === id));
    }
    const brokerOf = url.match(/^\/api\/accounts\/([^/]+)\/broker$/);
    if (brokerOf) {
      const target = state.accounts.find((a) => a.id === brokerOf[1]);
      if (!target) return problem(404, "Not Found", "No such account of yours.");
      let updated: TradingAccount;
      if (method === "PUT") {
        if (state.maxAccounts === 1) return problem(403, "Forbidden", BROKER_PLAN_REFUSAL);
        const body = JSON.parse(String(init.body)) as BrokerConnectionInput;
        const errors = [
          ...(/^[A-Za-z0-9]{8,64}$/.test(body.keyId) ? [] : [{ field: "keyId", message: "The key id is 8 to 64 letters and digits" }]),
          ...(/^\S{16,128}$/.test(body.secretKey) ? [] : [{ field: "secretKey", message: "The secret key is 16 to 128 characters" }]),
        ];
        if (errors.length > 0) return problem(422, "Unprocessable Entity", "A field is not valid.", errors);
        updated = { ...target, broker: { name: "alpaca", endpoint: body.endpoint, keyHint: body.keyId.slice(-4) } };
      } else if (method === "DELETE") {
        updated = { ...target, broker: { name: "paper" } };
      } else {
        return problem(405, "Method Not Allowed", "Not allowed.");
      }
      state = { ...state, accounts: state.accounts.map((a) => (a.id === target.id ? updated : a)) };
      return jsonResponse(updated);
    }
    const one = url.match(/^\/api\/accounts\/([^/]+)$/);
    const account = one ? state.accounts.find((a) => a.id === one[1]) : undefined;
    if (one && !account) return problem(404, "Not Found", "No such account of yours.");
    if (account && method === "PATCH") {
      const body = JSON.parse(String(init.body)) as TradingAccountUpdate;
      const changes = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null && value !== undefined));
      const updated = { ...account, ...changes };
      state = { ...state, accounts: state.accounts.map((a) => (a.id === account.id ? updated : a)) };
      return jsonResponse(updated);
    }
    if (account && method === "DELETE") {
      if (account.current) return problem(409, "Conflict", CURRENT_REFUSAL, [{ field: "id", message: CURRENT_REFUSAL }]);
      state = { ...state, accounts: state.accounts.filter((a) => a.id !== account.id) };
      return new Response(null, { status: 204 });
    }
    return problem(404, "Not Found", "The requested resource does not exist.");
  });
  return { fetchMock, state: () => state };
}
