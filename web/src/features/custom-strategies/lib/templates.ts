import type { CustomStrategyDocument, IndicatorName } from "@/lib/api/models";
import { draftFromDocument, type StrategyDraft } from "./rule";

/**
 * Starter rules to begin from: each a complete, valid document the user then edits. The first
 * is docs/strategies.md §11's example (Mean Reversion's CALL written as a rule).
 */

export type TemplateId = "oversold-bounce" | "trend-pullback" | "breakdown-on-volume" | "quiet-before-the-move";

export type StrategyTemplate = { id: TemplateId; label: string; description: string; document: CustomStrategyDocument };

const indicator = (name: IndicatorName, barsAgo = 0) => ({ indicator: { name, barsAgo } });

export const TEMPLATES: readonly StrategyTemplate[] = [
  {
    id: "oversold-bounce",
    label: "Oversold bounce",
    description: "RSI(14) below 30 and the close crosses back above the lower Bollinger band: a call at the money.",
    document: {
      version: 1,
      entry: {
        all: [
          { compare: { left: indicator("rsi14"), is: "below", right: { number: 30 } } },
          { crosses: { left: indicator("close"), is: "above", right: indicator("bollingerLower") } },
        ],
      },
      opens: "CALL",
      strike: { offset: 0 },
      minDays: 30,
      exits: { targetGain: 0.5, stopLoss: 0.3, maxDays: 10 },
    },
  },
  {
    id: "trend-pullback",
    label: "Trend pullback",
    description: "EMA(20) above EMA(50) while RSI(14) dips below 45: a call one strike out of the money.",
    document: {
      version: 1,
      entry: {
        all: [
          { compare: { left: indicator("ema20"), is: "above", right: indicator("ema50") } },
          { compare: { left: indicator("rsi14"), is: "below", right: { number: 45 } } },
        ],
      },
      opens: "CALL",
      strike: { offset: 1 },
      minDays: 21,
      exits: { targetGain: 0.6, stopLoss: 0.4, maxDays: 15 },
    },
  },
  {
    id: "breakdown-on-volume",
    label: "Breakdown on volume",
    description: "The close crosses below the prior 20-day low on volume above its prior 20-day average: a put.",
    document: {
      version: 1,
      entry: {
        all: [
          { crosses: { left: indicator("close"), is: "below", right: indicator("priorLow") } },
          { compare: { left: indicator("volume"), is: "above", right: indicator("priorVolumeAverage") } },
        ],
      },
      opens: "PUT",
      strike: { offset: 1 },
      minDays: 21,
      exits: { targetGain: 0.6, stopLoss: 0.4, maxDays: 10 },
    },
  },
  {
    id: "quiet-before-the-move",
    label: "Quiet before the move",
    description: "HV rank below 20 and HV percentile below 25: a straddle for volatility to wake up.",
    document: {
      version: 1,
      entry: {
        all: [
          { compare: { left: indicator("hvRank"), is: "below", right: { number: 20 } } },
          { compare: { left: indicator("hvPercentile"), is: "below", right: { number: 25 } } },
        ],
      },
      opens: "STRADDLE",
      strike: { offset: 0 },
      minDays: 30,
      exits: { targetGain: 0.4, stopLoss: 0.5, maxDays: 20 },
    },
  },
];

/** A template as a new draft, named after it. */
export function draftFromTemplate(id: TemplateId): StrategyDraft {
  const template = TEMPLATES.find((t) => t.id === id) ?? TEMPLATES[0];
  return draftFromDocument(template.label, template.document);
}

export function isTemplateId(value: string): value is TemplateId {
  return TEMPLATES.some((t) => t.id === value);
}
