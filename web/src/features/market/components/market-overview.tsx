import { LineChartIcon, RefreshCwIcon, TrendingDownIcon, TrendingUpIcon } from "lucide-react";
import { Link } from "react-router";
import { IvRankValue, IvSummary } from "@/components/iv-figures";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { StockPrice } from "@/lib/api/models";
import { formatContractPrice, formatSignedPercent, formatVolume, SIGN_TEXT_CLASS, signOf } from "@/lib/format";
import { formatIv, stockOptionsPath } from "@/lib/options";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import { useStockPrices } from "../api/get-stock-prices";
import { useUpdateStockPrices } from "../api/update-stock-prices";
import { AddStocksDialog } from "./add-stocks-dialog";
import { SetPriceAlertButton } from "./set-price-alert-dialog";

/** Top Gainers and Top Losers show 5 each. */
export const MOVERS_COUNT = 5;

/** The biggest risers today (only those that rose), highest first. */
export function topGainers(prices: readonly StockPrice[], count = MOVERS_COUNT): StockPrice[] {
  return prices
    .filter((p) => p.priceChangePercent > 0)
    .sort((a, b) => b.priceChangePercent - a.priceChangePercent)
    .slice(0, count);
}

/** The biggest fallers today (only those that fell), lowest first. */
export function topLosers(prices: readonly StockPrice[], count = MOVERS_COUNT): StockPrice[] {
  return prices
    .filter((p) => p.priceChangePercent < 0)
    .sort((a, b) => a.priceChangePercent - b.priceChangePercent)
    .slice(0, count);
}

function Change({ stock }: { stock: StockPrice }) {
  return (
    <span className={cn("tabular", SIGN_TEXT_CLASS[signOf(stock.priceChangePercent)])}>
      {formatSignedPercent(stock.priceChangePercent)}
    </span>
  );
}

/** The ticker, a link to the stock's options view (its chain and implied-volatility history). */
function SymbolLink({ symbol }: { symbol: string }) {
  return (
    <Link
      to={stockOptionsPath(symbol)}
      title="Option chain and implied volatility"
      className="rounded-sm font-semibold text-primary-strong underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
    >
      {symbol}
      <span className="sr-only"> options</span>
    </Link>
  );
}

function MoversList({ stocks, empty, label }: { stocks: StockPrice[]; empty: string; label: string }) {
  if (stocks.length === 0) return <p className="py-8 text-center text-sm text-muted-foreground">{empty}</p>;
  return (
    <ol className="divide-y" aria-label={label}>
      {stocks.map((stock) => (
        <li key={stock.symbol} className="flex items-center justify-between gap-3 py-2.5 text-sm">
          <span className="min-w-0">
            <SymbolLink symbol={stock.symbol} />
            <span className="block truncate text-xs text-muted-foreground">{stock.companyName}</span>
            <IvSummary figures={stock} className="block text-xs text-muted-foreground" />
          </span>
          <span className="flex shrink-0 items-center gap-2">
            <span className="text-right">
              <span className="block font-medium tabular">{formatContractPrice(stock.currentPrice)}</span>
              <span className="block text-xs">
                <Change stock={stock} />
              </span>
            </span>
            <SetPriceAlertButton stock={stock} />
          </span>
        </li>
      ))}
    </ol>
  );
}

function AllStocks({ stocks }: { stocks: StockPrice[] }) {
  if (stocks.length === 0) return <p className="py-8 text-center text-sm text-muted-foreground">No stocks on the watchlist yet</p>;
  return (
    <div
      className="relative max-h-96 overflow-auto rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
      tabIndex={0}
      role="region"
      aria-label="All stocks table"
    >
      <table className="w-full min-w-[600px] text-sm">
        <thead className="sticky top-0 bg-card">
          <tr className="border-b text-left text-xs text-muted-foreground">
            <th scope="col" className="py-2 pr-3 font-medium">
              Symbol
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Sector
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Price
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Change
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Volume
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium whitespace-nowrap">
              <abbr title="30-day at-the-money implied volatility" className="no-underline">
                IV
              </abbr>{" "}
              · rank
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              52-week range
            </th>
          </tr>
        </thead>
        <tbody>
          {stocks.map((stock) => (
            <tr key={stock.symbol} className="border-b last:border-b-0">
              <td className="py-2 pr-3">
                {/* The shortcut sits by the ticker: in view on a phone, and no wider a table. */}
                <span className="flex items-center gap-1">
                  <SymbolLink symbol={stock.symbol} />
                  <SetPriceAlertButton stock={stock} className="size-6" />
                </span>
                <span className="block max-w-44 truncate text-xs text-muted-foreground">{stock.companyName}</span>
                {/* On a phone the IV columns are off to the right: the short line keeps them in view. */}
                <IvSummary figures={stock} className="block text-xs text-muted-foreground sm:hidden" />
              </td>
              <td className="py-2 pr-3 text-muted-foreground">{stock.sector}</td>
              <td className="py-2 pr-3 text-right tabular">{formatContractPrice(stock.currentPrice)}</td>
              <td className="py-2 pr-3 text-right">
                <Change stock={stock} />
              </td>
              <td className="py-2 pr-3 text-right tabular">{formatVolume(stock.volume)}</td>
              <td className="py-2 pr-3 text-right whitespace-nowrap tabular">
                <span className="block">{formatIv(stock.impliedVolatility)}</span>
                <span className="block text-xs text-muted-foreground">
                  <span aria-hidden>IVR </span>
                  <span className="sr-only">IV rank </span>
                  <IvRankValue rank={stock.ivRank} />
                </span>
              </td>
              <td className="py-2 text-right whitespace-nowrap text-muted-foreground tabular">
                {formatContractPrice(stock.low52Week)} – {formatContractPrice(stock.high52Week)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Top gainers, top losers and every stock, in tabs. */
function MarketTabs({ prices }: { prices: StockPrice[] }) {
  return (
    <Tabs defaultValue="gainers">
      <TabsList className="w-full sm:w-auto">
        <TabsTrigger className="flex-1 px-2 sm:flex-none sm:px-3" value="gainers">
          <TrendingUpIcon aria-hidden className="hidden sm:block" />
          Top Gainers
        </TabsTrigger>
        <TabsTrigger className="flex-1 px-2 sm:flex-none sm:px-3" value="losers">
          <TrendingDownIcon aria-hidden className="hidden sm:block" />
          Top Losers
        </TabsTrigger>
        <TabsTrigger className="flex-1 px-2 sm:flex-none sm:px-3" value="all">
          <LineChartIcon aria-hidden className="hidden sm:block" />
          All Stocks
        </TabsTrigger>
      </TabsList>
      <TabsContent value="gainers" className="mt-3">
        <MoversList stocks={topGainers(prices)} empty="No stock is up today" label="Top gainers" />
      </TabsContent>
      <TabsContent value="losers" className="mt-3">
        <MoversList stocks={topLosers(prices)} empty="No stock is down today" label="Top losers" />
      </TabsContent>
      <TabsContent value="all" className="mt-3">
        <AllStocks stocks={prices} />
      </TabsContent>
    </Tabs>
  );
}

/**
 * The watchlist: top gainers, top losers, every stock, each with its implied volatility and IV
 * rank and its ticker linking to its options view; update prices and add stocks. Prices
 * (now, the 52-week range) are quotes of US instruments, shown in US dollars in any display
 * currency (`formatContractPrice`); changes are percentages and volumes share counts.
 */
export function MarketOverview() {
  const query = useStockPrices();
  const update = useUpdateStockPrices();

  const onUpdate = () => {
    update.mutate(undefined, {
      onSuccess: () => toast({ title: "Prices Updated" }),
      onError: () => toast({ variant: "destructive", title: "Error", description: "Failed to update stock prices" }),
    });
  };

  return (
    <Card>
      <CardHeader className="gap-3 border-b pb-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid gap-1">
          <h2 className="text-base leading-tight font-semibold">Market Overview</h2>
          <CardDescription>Today&apos;s moves across the watchlist.</CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={onUpdate} disabled={update.isPending}>
            <RefreshCwIcon aria-hidden className={cn(update.isPending && "animate-spin motion-reduce:animate-none")} />
            {update.isPending ? "Updating..." : "Update Prices"}
          </Button>
          <AddStocksDialog />
        </div>
      </CardHeader>
      <CardContent className="pt-4">
        <QueryState
          query={query}
          loadingLabel="Loading stock prices"
          skeleton={<SkeletonRows count={5} className="h-10 w-full" />}
          skeletonClassName="gap-2"
          errorTitle="Failed to fetch stock prices"
          errorLayout="centered"
          staleData="show"
          isEmpty={(prices) => prices.length === 0}
        >
          {(prices) => <MarketTabs prices={prices} />}
        </QueryState>
      </CardContent>
    </Card>
  );
}
