import { z } from "zod";

/** The test provider's cards (docs/billing.md): only these are taken, and nothing real is charged. */
export const TEST_CARDS = [
  { number: "4242 4242 4242 4242", result: "pays, and renewals succeed" },
  { number: "4000 0000 0000 0002", result: "is declined: “Your card was declined.”" },
  { number: "4000 0000 0000 9995", result: "is declined: “Your card has insufficient funds.”" },
  { number: "4000 0000 0000 0341", result: "pays, then later charges are declined" },
] as const;

export const digitsOf = (text: string) => text.replace(/\D/g, "");

/** "4242424242424242" → "4242 4242 4242 4242": digits only, at most 16, in groups of four. */
export function formatCardNumber(text: string): string {
  return digitsOf(text)
    .slice(0, 16)
    .replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** What is typed into the expiry box as MM/YY: "1230" → "12/30", "5" → "05", "12" → "12". */
export function formatExpiry(text: string): string {
  let digits = digitsOf(text).slice(0, 4);
  if (digits.length === 1 && digits > "1") digits = `0${digits}`;
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

/** "12/30" → { month: 12, year: 2030 }; null unless it is MM/YY with a month 1–12. */
export function parseExpiry(text: string): { month: number; year: number } | null {
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const month = Number(match[1]);
  if (month < 1 || month > 12) return null;
  return { month, year: 2000 + Number(match[2]) };
}

/** The card form's rules, with the provider's own wording where it has one. */
export function cardSchema(now: Date = new Date()) {
  return z.object({
    cardNumber: z.string().refine((v) => digitsOf(v).length === 16, "Your card number is incomplete."),
    expiry: z
      .string()
      .refine((v) => parseExpiry(v) !== null, "Enter the expiry date as MM/YY.")
      .refine((v) => {
        const expiry = parseExpiry(v);
        if (!expiry) return true;
        return expiry.year * 12 + expiry.month >= now.getFullYear() * 12 + now.getMonth() + 1;
      }, "Your card's expiration date is in the past."),
    cvc: z.string().regex(/^\d{3,4}$/, "Your card's security code is incomplete."),
  });
}

export type CardValues = z.infer<ReturnType<typeof cardSchema>>;
