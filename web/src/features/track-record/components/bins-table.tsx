import type { Bin } from "@/lib/api/models";
import { NO_VALUE } from "@/lib/format";
import { cn } from "@/lib/utils";
import { binRange, formatProbability, wilsonRange } from "../lib/calibration";
import { ScrollTable, TD, TH } from "./data-table";

/** Every bin of the reliability diagram as a row: the diagram's data, and its text alternative. */
export function BinsTable({ bins, caption }: { bins: readonly Bin[]; caption: string }) {
  return (
    <ScrollTable label={caption} caption={caption} minWidth="min-w-[34rem]">
      <thead>
        <tr className="border-b">
          <th scope="col" className={TH}>
            Forecast range
          </th>
          <th scope="col" className={cn(TH, "text-right")}>
            Signals (n)
          </th>
          <th scope="col" className={cn(TH, "text-right")}>
            Wins
          </th>
          <th scope="col" className={cn(TH, "text-right")}>
            Mean forecast
          </th>
          <th scope="col" className={cn(TH, "text-right")}>
            Observed frequency
          </th>
          <th scope="col" className={cn(TH, "pr-0 text-right")}>
            95% interval
          </th>
        </tr>
      </thead>
      <tbody className="divide-y">
        {bins.map((bin) => {
          const empty = bin.n === 0;
          return (
            <tr key={`${bin.lower}-${bin.upper}`} className={empty ? "text-muted-foreground" : undefined}>
              <th scope="row" className={cn(TD, "font-medium whitespace-nowrap")}>
                {binRange(bin)}
              </th>
              <td className={cn(TD, "text-right")}>{bin.n}</td>
              <td className={cn(TD, "text-right")}>{empty ? NO_VALUE : bin.wins}</td>
              <td className={cn(TD, "text-right")}>{formatProbability(bin.meanForecast)}</td>
              <td className={cn(TD, "text-right")}>{formatProbability(bin.observedFrequency)}</td>
              <td className={cn(TD, "pr-0 text-right whitespace-nowrap")}>{wilsonRange(bin)}</td>
            </tr>
          );
        })}
      </tbody>
    </ScrollTable>
  );
}
