import { cn } from "@/lib/utils";

type BrandPreviewProps = {
  name: string;
  primaryColor: string;
  accentColor: string;
  footer: string;
  /** The saved logo's address, or null without one. */
  logoUrl: string | null;
  className?: string;
};

/**
 * How the top and foot of a report page look in this brand, drawn as the PDF draws them
 * (crates/reports' layout): the logo left of the name in the primary colour, the report's title
 * at the right, a rule in the primary colour; a figure card tinted with it, the chart series in
 * both colours; the footer line over "Page 1 of 3". Always on white paper, in either theme.
 */
export function BrandPreview({ name, primaryColor, accentColor, footer, logoUrl, className }: BrandPreviewProps) {
  const shownName = name.trim() || "Your brand name";
  const shownFooter = footer.trim() || "Your footer line: a disclaimer or your address.";
  return (
    <figure className={cn("grid gap-2", className)} data-testid="brand-preview">
      <div
        className="overflow-hidden rounded-lg border border-neutral-300 bg-white px-4 py-4 font-[Helvetica,Arial,sans-serif] text-neutral-900 shadow-xs sm:px-6"
        role="img"
        aria-label={`Report header preview: ${shownName}${logoUrl ? " with your logo" : ""}, footer "${shownFooter}"`}
      >
        <div className="flex min-h-10 items-center gap-3">
          {logoUrl ? <img src={logoUrl} alt="" className="max-h-10 w-auto max-w-28 shrink-0 object-contain sm:max-w-40" /> : null}
          <p
            className={cn("min-w-0 truncate text-lg leading-tight font-bold", !name.trim() && "opacity-60")}
            style={{ color: primaryColor }}
            data-testid="brand-preview-name"
          >
            {shownName}
          </p>
          <p className="ml-auto hidden shrink-0 text-xs text-neutral-500 sm:block">Portfolio report</p>
        </div>
        <div className="mt-2 h-0.5" style={{ backgroundColor: primaryColor }} data-testid="brand-preview-rule" />
        <div aria-hidden className="mt-4 grid gap-3">
          <p className="text-base font-bold">Portfolio report</p>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {["Total value", "Unrealized P&L", "Win rate"].map((label, i) => (
              <div
                key={label}
                className={cn("relative overflow-hidden rounded-sm py-2 pr-2 pl-3", i === 2 && "hidden sm:block")}
                style={{ backgroundColor: `color-mix(in srgb, ${primaryColor} 7%, white)` }}
              >
                <span className="absolute inset-y-0 left-0 w-[3px]" style={{ backgroundColor: primaryColor }} />
                <span className="block text-[0.65rem] text-neutral-600">{label}</span>
                <span className="mt-1 block h-2 w-12 rounded-xs bg-neutral-300" />
              </div>
            ))}
          </div>
          <div className="flex items-center gap-4 text-[0.65rem] text-neutral-600">
            <span className="inline-flex items-center gap-1.5">
              <span className="h-0.5 w-5" style={{ backgroundColor: primaryColor }} /> First series
            </span>
            <span className="inline-flex items-center gap-1.5">
              <span className="h-0.5 w-5" style={{ backgroundColor: accentColor }} /> Second series, positive bars
            </span>
          </div>
        </div>
        <div className="mt-4 flex items-start gap-4 border-t border-neutral-300 pt-2 text-[0.65rem] leading-snug text-neutral-500">
          <p className={cn("line-clamp-3 min-w-0 flex-1 break-words", !footer.trim() && "italic")} data-testid="brand-preview-footer">
            {shownFooter}
          </p>
          <p className="shrink-0">Page 1 of 3</p>
        </div>
      </div>
      <figcaption className="text-xs text-muted-foreground">
        Preview of the top and foot of each page. Reports print in Helvetica on US Letter.
      </figcaption>
    </figure>
  );
}
