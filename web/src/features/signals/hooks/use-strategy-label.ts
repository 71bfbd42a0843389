import { useCustomStrategyName } from "@/lib/api/custom-strategies";
import type { Signal } from "@/lib/api/models";

export type StrategyLabel = {
  /** What is shown: the house rule's name, the custom strategy's name, or "Custom". */
  text: string;
  /** Issued by one of the user's own custom strategies (`strategy` "Custom"). */
  custom: boolean;
  /** The custom strategy's name, when the user's list has it. */
  name: string | null;
  /** A custom strategy's signal whose strategy has since been deleted (it no longer names one). */
  deleted: boolean;
};

/**
 * How a signal's strategy is shown: a house rule by its name; a custom strategy's signal by the
 * name of the user's strategy that issued it (`customStrategyId`, read from the shared list of
 * their strategies, asked only for such a signal), else "Custom".
 */
export function useStrategyLabel(signal: Pick<Signal, "strategy" | "customStrategyId">): StrategyLabel {
  const custom = signal.strategy === "Custom";
  const name = useCustomStrategyName(custom ? signal.customStrategyId : null);
  return { text: custom ? (name ?? "Custom") : signal.strategy, custom, name, deleted: custom && signal.customStrategyId == null };
}
