import { useParams, useSearchParams } from "react-router";
import { StockOptionsPage } from "@/features/market/components/stock-options-page";
import { isIsoDate } from "@/lib/calendar";
import { usePageMeta } from "@/lib/page-meta";
import NotFoundRoute from "./not-found";

/** A ticker as the watchlist writes them: letters, digits, dots and dashes. */
const SYMBOL = /^[A-Z0-9.-]{1,12}$/;

/** /stocks/:symbol/options: a tracked stock's chain and implied volatility; `?expiration=` picks the chain's date. */
export default function StockOptionsRoute() {
  const symbol = (useParams().symbol ?? "").toUpperCase();
  const [params, setParams] = useSearchParams();
  usePageMeta(`${symbol} options`, `${symbol}'s option chain, implied-volatility history, IV rank and IV percentile.`);
  if (!SYMBOL.test(symbol)) return <NotFoundRoute embedded />;
  const asked = params.get("expiration");
  const onExpirationChange = (expiration: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (expiration) next.set("expiration", expiration);
        else next.delete("expiration");
        return next;
      },
      { replace: true },
    );
  return (
    <StockOptionsPage
      key={symbol}
      symbol={symbol}
      expiration={asked && isIsoDate(asked) ? asked : null}
      onExpirationChange={onExpirationChange}
    />
  );
}
