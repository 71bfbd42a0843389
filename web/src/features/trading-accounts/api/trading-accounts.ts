// The calls and their queries live in src/lib/api/trading-accounts.ts: the app's header switches
// accounts too, and a switch refreshes what every feature shows. This module keeps the feature's
// names for them.
export {
  currentAccountOf,
  useConnectBroker,
  useCreateTradingAccount,
  useDeleteTradingAccount,
  useDisconnectBroker,
  useSwitchTradingAccount,
  useTradingAccounts,
  useUpdateTradingAccount,
} from "@/lib/api/trading-accounts";
