// The watchlist's query is shared with the signals and the strategy builder: it lives in
// lib/api/stock-prices.ts, and this module keeps the market feature's name for it.
export { getStockPrices, stockPricesQueryOptions, useStockPrices } from "@/lib/api/stock-prices";
