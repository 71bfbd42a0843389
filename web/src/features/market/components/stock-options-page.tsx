import { useId } from "react";
import { Breadcrumbs } from "@/components/breadcrumbs";
import { IvSummary } from "@/components/iv-figures";
import { PageHeader } from "@/components/page-header";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { formatContractPrice, formatSignedPercent, SIGN_TEXT_CLASS, signOf } from "@/lib/format";
import { cn } from "@/lib/utils";
import { useStockPrices } from "../api/get-stock-prices";
import { ImpliedVolatilityPanel } from "./implied-volatility-panel";
import { OptionChain } from "./option-chain";

/** The page's subtitle: the company, the last price and today's change, the IV line; from the watchlist. */
function StockLine({ symbol }: { symbol: string }) {
  const { data, isPending } = useStockPrices();
  if (isPending) return <span aria-hidden className="inline-block h-4 w-64 max-w-full animate-pulse rounded-md bg-muted align-middle" />;
  const stock = data?.find((s) => s.symbol === symbol);
  if (!stock) return <span>Not on your watchlist.</span>;
  return (
    <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <span>{stock.companyName}</span>
      <span className="font-medium text-foreground tabular">{formatContractPrice(stock.currentPrice)}</span>
      <span className={cn("tabular", SIGN_TEXT_CLASS[signOf(stock.priceChangePercent)])}>
        {formatSignedPercent(stock.priceChangePercent)}
      </span>
      <IvSummary figures={stock} />
    </span>
  );
}

/**
 * A tracked stock's options (/stocks/:symbol/options): its implied-volatility history with IV
 * rank and percentile, and its option chain at the expiration in the address (`?expiration=`,
 * so a chosen date survives a reload and can be shared).
 */
export function StockOptionsPage({
  symbol,
  expiration,
  onExpirationChange,
}: {
  symbol: string;
  expiration: string | null;
  onExpirationChange: (expiration: string | null) => void;
}) {
  const id = useId();
  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="grid gap-3">
        <Breadcrumbs items={[{ label: "Dashboard", href: "/" }, { label: `${symbol} options` }]} />
        <PageHeader title={`${symbol} options`} description={<StockLine symbol={symbol} />} />
      </div>
      <ImpliedVolatilityPanel symbol={symbol} />
      <Card role="region" aria-labelledby={`${id}-chain`}>
        <CardHeader className="border-b pb-4">
          <h2 id={`${id}-chain`} className="text-base leading-tight font-semibold">
            Option chain
          </h2>
          <CardDescription>
            Each strike's call and put: quotes, implied volatility, delta and open interest, the other Greeks on request.
          </CardDescription>
        </CardHeader>
        <CardContent className="pt-5">
          <OptionChain symbol={symbol} expiration={expiration} onExpirationChange={onExpirationChange} />
        </CardContent>
      </Card>
    </div>
  );
}
