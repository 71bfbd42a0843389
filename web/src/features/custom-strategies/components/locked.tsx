import { LockedFeature } from "@/components/locked-feature";

/** Free and Pro: what the Premium custom strategies do, locked, with the way to them. */
export function CustomStrategiesLocked() {
  return (
    <LockedFeature title="Custom strategies" plan="Premium" testId="custom-strategies-locked" heading="h2">
      Write your own entry rule over the indicators (RSI, moving averages, Bollinger bands, MACD, volatility, volume), see where it fires
      today on each tracked stock, backtest it over the stored history and keep it by name. Strategies you saved stay listed below: you can
      read and delete them.
    </LockedFeature>
  );
}
