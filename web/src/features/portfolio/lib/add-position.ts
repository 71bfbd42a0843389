import { z } from "zod";
import { OPTION_TYPES, type OptionType } from "@/lib/api/enums";
import type { NewManualPosition } from "@/lib/api/models";
import { isIsoDate, todayIso } from "@/lib/calendar";
import { formatCount } from "@/lib/format";

/** The Add Manual Position form's fields, as typed (numbers stay text until sent). */
export type AddPositionValues = {
  symbol: string;
  companyName: string;
  type: OptionType;
  strikePrice: string;
  quantity: string;
  expirationDate: string;
  entryPrice: string;
  targetPrice: string;
  stopLoss: string;
  reasoning: string;
};

export const ADD_POSITION_FIELDS = [
  "symbol",
  "companyName",
  "type",
  "strikePrice",
  "quantity",
  "expirationDate",
  "entryPrice",
  "targetPrice",
  "stopLoss",
  "reasoning",
] as const satisfies readonly (keyof AddPositionValues)[];

/** The form's defaults: CALL, 1 contract, expiring today, every other field empty. */
export function addPositionDefaults(today: string = todayIso()): AddPositionValues {
  return {
    symbol: "",
    companyName: "",
    type: "CALL",
    strikePrice: "",
    quantity: "1",
    expirationDate: today,
    entryPrice: "",
    targetPrice: "",
    stopLoss: "",
    reasoning: "",
  };
}

export const MAX_QUANTITY = 10_000;
export const MAX_REASONING = 1000;

const SYMBOL = /^[A-Z][A-Z0-9.-]{0,9}$/;
const PRICE = /^\d+(\.\d{1,2})?$|^\.\d{1,2}$/;

/** A price typed in the form: a positive number with at most two decimals. */
function priceIssue(text: string, label: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return `Enter the ${label}`;
  const value = Number(trimmed);
  if (!Number.isFinite(value) || value <= 0) return `The ${label} must be above 0`;
  if (!PRICE.test(trimmed)) return "Use at most two decimals";
  return null;
}

const requiredPrice = (label: string) =>
  z.string().superRefine((text, ctx) => {
    const issue = priceIssue(text, label);
    if (issue) ctx.addIssue({ code: "custom", message: issue });
  });

const optionalPrice = (label: string) =>
  z.string().superRefine((text, ctx) => {
    if (!text.trim()) return;
    const issue = priceIssue(text, label);
    if (issue) ctx.addIssue({ code: "custom", message: issue });
  });

/** The rules of the contract (POST /api/manual-positions), checked before sending. */
export const addPositionSchema = z.object({
  symbol: z
    .string()
    .trim()
    .min(1, "Enter a stock symbol")
    .refine((s) => SYMBOL.test(s.toUpperCase()), "Use a ticker such as AAPL or BRK.B"),
  companyName: z.string().trim().min(1, "Enter the company name").max(200, "Keep the company name under 200 characters"),
  type: z.enum(OPTION_TYPES, { message: "Choose Call, Put or Straddle" }),
  strikePrice: requiredPrice("strike price"),
  quantity: z.string().superRefine((text, ctx) => {
    const trimmed = text.trim();
    const value = Number(trimmed);
    if (!trimmed || !/^\d+$/.test(trimmed) || value < 1) {
      ctx.addIssue({ code: "custom", message: "Enter a whole number of contracts, at least 1" });
    } else if (value > MAX_QUANTITY) {
      ctx.addIssue({ code: "custom", message: `At most ${formatCount(MAX_QUANTITY)} contracts` });
    }
  }),
  expirationDate: z.string().superRefine((text, ctx) => {
    if (!isIsoDate(text)) ctx.addIssue({ code: "custom", message: "Pick an expiration date" });
    else if (text < todayIso()) ctx.addIssue({ code: "custom", message: "The expiration date cannot be in the past" });
  }),
  entryPrice: requiredPrice("entry price"),
  targetPrice: optionalPrice("target price"),
  stopLoss: optionalPrice("stop loss"),
  reasoning: z.string().max(MAX_REASONING, "Keep the reasoning under 1,000 characters"),
});

/** The request body: the symbol upper-cased, numbers parsed, empty optional fields left out. */
export function toNewManualPosition(values: AddPositionValues): NewManualPosition {
  const body: NewManualPosition = {
    symbol: values.symbol.trim().toUpperCase(),
    companyName: values.companyName.trim(),
    type: values.type,
    strikePrice: Number(values.strikePrice.trim()),
    expirationDate: values.expirationDate,
    quantity: Number(values.quantity.trim()),
    entryPrice: Number(values.entryPrice.trim()),
  };
  if (values.targetPrice.trim()) body.targetPrice = Number(values.targetPrice.trim());
  if (values.stopLoss.trim()) body.stopLoss = Number(values.stopLoss.trim());
  if (values.reasoning.trim()) body.reasoning = values.reasoning.trim();
  return body;
}
