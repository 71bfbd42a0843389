import type { Analyzer } from "./api/models";

/**
 * Who wrote an AI analysis or recommendation, as the news page and the dashboard's assistant
 * say it: the offline model Strikeline ships, or an OpenAI-compatible service an operator set up.
 */
export const ANALYZER_TEXT: Record<Analyzer, string> = {
  builtin: "Analysed by Strikeline's built-in model",
  openai: "Analysed by an OpenAI-compatible model",
};
