import { z } from "zod";
import type { ReportBrandInput, ReportBrandView } from "@/lib/api/models";

/** The server's limits (docs/reports.md): the name, the footer and the logo. */
export const NAME_MAX = 80;
export const FOOTER_MAX = 300;
export const LOGO_MAX_BYTES = 512 * 1024;

const HEX = /^#[0-9a-fA-F]{6}$/;
const COLOUR_MESSAGE = "A colour as #rrggbb, e.g. #1d4ed8";

/** The brand form, as the server checks it (it checks again). */
export const brandSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Enter the name your reports carry")
    .max(NAME_MAX, `At most ${NAME_MAX} characters`)
    .refine((name) => !/[\n\r\t]/.test(name), "One line, without control characters"),
  primaryColor: z.string().trim().regex(HEX, COLOUR_MESSAGE),
  accentColor: z.string().trim().regex(HEX, COLOUR_MESSAGE),
  footer: z.string().trim().max(FOOTER_MAX, `At most ${FOOTER_MAX} characters`),
  monthlyEmail: z.boolean(),
}) satisfies z.ZodType<ReportBrandInput, ReportBrandInput>;

export type BrandValues = z.infer<typeof brandSchema>;

/** The fields the server may name in a 422, each under its input. */
export const BRAND_FIELDS = ["name", "primaryColor", "accentColor", "footer"] as const;

/**
 * The form's starting values: the saved brand, or for an account without one the house
 * colours with an empty name and footer (the house footer names Strikeline, which a
 * white-label report must not).
 */
export function brandValues(brand: ReportBrandView): BrandValues {
  return {
    name: brand.custom ? brand.name : "",
    primaryColor: brand.primaryColor,
    accentColor: brand.accentColor,
    footer: brand.custom ? brand.footer : "",
    monthlyEmail: brand.monthlyEmail,
  };
}

/** `value` when it is a `#rrggbb` colour (lower-cased, as a colour input wants it), else `fallback`. */
export function hexOr(value: string, fallback: string): string {
  const trimmed = value.trim();
  return HEX.test(trimmed) ? trimmed.toLowerCase() : fallback;
}

/** Why `file` cannot be the logo, checked before anything is sent; null when it may be uploaded. */
export function logoIssue(file: Pick<File, "type" | "size" | "name">): string | null {
  const png = file.type === "image/png" || (file.type === "" && /\.png$/i.test(file.name));
  if (!png) return "Choose a PNG file. Export an SVG or JPEG logo as PNG first.";
  if (file.size > LOGO_MAX_BYTES) {
    return `This file is ${formatKilobytes(file.size)}; the logo may be at most ${LOGO_MAX_BYTES / 1024} KB.`;
  }
  return null;
}

/** Bytes as whole kilobytes, rounded up ("513 KB"). */
export function formatKilobytes(bytes: number): string {
  return `${Math.ceil(bytes / 1024).toLocaleString("en-US")} KB`;
}

/** The WCAG contrast ratio of a `#rrggbb` colour against white paper (1 to 21). */
export function contrastOnWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05);
}

/** Below this against white, headings in the colour read faintly (WCAG's ratio for large text). */
export const FAINT_CONTRAST = 3;
