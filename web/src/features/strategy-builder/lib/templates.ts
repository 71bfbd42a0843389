import { isOneOf, TEMPLATE_NAMES } from "@/lib/api/enums";
import type { TemplateName } from "@/lib/api/models";

/** Each template's name as a trader reads it. */
export const TEMPLATE_LABELS: Record<TemplateName, string> = {
  "long-call": "Long call",
  "short-call": "Short call",
  "long-put": "Long put",
  "short-put": "Short put",
  "covered-call": "Covered call",
  "protective-put": "Protective put",
  collar: "Collar",
  "bull-call-spread": "Bull call spread",
  "bear-call-spread": "Bear call spread",
  "bull-put-spread": "Bull put spread",
  "bear-put-spread": "Bear put spread",
  straddle: "Straddle",
  strangle: "Strangle",
  "iron-condor": "Iron condor",
  "iron-butterfly": "Iron butterfly",
  "call-butterfly": "Call butterfly",
  "put-butterfly": "Put butterfly",
  calendar: "Calendar",
  diagonal: "Diagonal",
};

/** The templates in the picker's groups; every template is in exactly one (templates.test.ts). */
export const TEMPLATE_GROUPS: readonly { label: string; templates: readonly TemplateName[] }[] = [
  { label: "Single legs", templates: ["long-call", "short-call", "long-put", "short-put"] },
  { label: "Income and hedges", templates: ["covered-call", "protective-put", "collar"] },
  { label: "Vertical spreads", templates: ["bull-call-spread", "bear-call-spread", "bull-put-spread", "bear-put-spread"] },
  { label: "Volatility", templates: ["straddle", "strangle"] },
  { label: "Wings", templates: ["iron-condor", "iron-butterfly", "call-butterfly", "put-butterfly"] },
  { label: "Time spreads", templates: ["calendar", "diagonal"] },
];

export function isTemplateName(value: string): value is TemplateName {
  return isOneOf(TEMPLATE_NAMES, value);
}
