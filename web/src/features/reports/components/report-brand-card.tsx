import { zodResolver } from "@hookform/resolvers/zod";
import { FileTextIcon, Loader2Icon, RotateCcwIcon, TriangleAlertIcon } from "lucide-react";
import { type ChangeEvent, type ComponentProps, useId, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { Link } from "react-router";
import { ConfirmDeleteDialog } from "@/components/confirm-delete-dialog";
import { LockedFeature } from "@/components/locked-feature";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { ApiError, errorMessage } from "@/lib/api/client";
import type { ReportBrandView } from "@/lib/api/models";
import { applyServerFieldErrors } from "@/lib/forms";
import { toast } from "@/lib/toast";
import { cn } from "@/lib/utils";
import {
  reportLogoUrl,
  useRemoveReportLogo,
  useReportBrand,
  useResetReportBrand,
  useSaveReportBrand,
  useUploadReportLogo,
} from "../api/report-brand";
import {
  BRAND_FIELDS,
  type BrandValues,
  brandSchema,
  brandValues,
  contrastOnWhite,
  FAINT_CONTRAST,
  FOOTER_MAX,
  hexOr,
  logoIssue,
  NAME_MAX,
} from "../lib/brand";
import { BrandPreview } from "./brand-preview";

const linkClass = "font-medium text-primary-strong underline-offset-4 hover:underline";

/** Where reports are downloaded; below Premium they carry the house brand. */
function WhereReports({ houseBrand }: { houseBrand: boolean }) {
  return (
    <p className="text-sm text-muted-foreground">
      {houseBrand ? "Reports can still be downloaded on every plan, in the Strikeline brand: " : "Download your reports from "}
      <Link to="/portfolio" className={linkClass}>
        Portfolio
      </Link>
      ,{" "}
      <Link to="/backtest" className={linkClass}>
        Backtest
      </Link>{" "}
      (after a run) and{" "}
      <Link to="/track-record" className={linkClass}>
        Track record
      </Link>
      .
    </p>
  );
}

const message = (error: string | undefined, id: string) =>
  error ? (
    <p id={id} className="text-[0.8rem] font-medium text-destructive-strong">
      {error}
    </p>
  ) : null;

type ColourFieldProps = {
  id: string;
  label: string;
  hint: string;
  /** Said under the hint (a colour that reads faintly on white). */
  warning?: string | null;
  value: string;
  fallback: string;
  error?: string;
  onPick: (hex: string) => void;
  input: ComponentProps<"input">;
};

/** A colour as a native picker and its `#rrggbb` text, kept in step; both are labelled. */
function ColourField({ id, label, hint, warning, value, fallback, error, onPick, input }: ColourFieldProps) {
  const messageId = `${id}-message`;
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label} picker`}
          value={hexOr(value, fallback)}
          onChange={(e) => onPick(e.target.value)}
          className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-input bg-card p-1 outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
        />
        <Input
          id={id}
          className="w-32 font-mono"
          spellCheck={false}
          autoComplete="off"
          maxLength={7}
          placeholder="#1d4ed8"
          aria-invalid={Boolean(error)}
          aria-describedby={messageId}
          {...input}
        />
      </div>
      {error ? (
        message(error, messageId)
      ) : (
        <p id={messageId} className="text-[0.8rem] text-muted-foreground">
          {hint}
          {warning ? (
            <span className="mt-1 flex items-start gap-1.5 font-medium text-foreground" data-testid={`${id}-warning`}>
              <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden />
              {warning}
            </span>
          ) : null}
        </p>
      )}
    </div>
  );
}

/** Premium's form: name, colours, footer, the monthly email; Save and Reset. */
function BrandForm({ brand, logoUrl }: { brand: ReportBrandView; logoUrl: string | null }) {
  const id = useId();
  const f = (name: string) => `${id}-${name}`;
  const save = useSaveReportBrand();
  const resetBrand = useResetReportBrand();
  const [confirming, setConfirming] = useState(false);
  const {
    register,
    handleSubmit,
    control,
    setValue,
    setError,
    reset,
    formState: { errors, isSubmitted },
  } = useForm<BrandValues>({ resolver: zodResolver(brandSchema), defaultValues: brandValues(brand) });
  const values = useWatch({ control }) as BrandValues;

  const onSubmit = handleSubmit(async (input) => {
    try {
      const saved = await save.mutateAsync(input);
      reset(brandValues(saved));
      toast({ title: "Branding saved", description: `Your reports now carry ${saved.name}.` });
    } catch (error) {
      const placed = error instanceof ApiError && error.status === 422 && applyServerFieldErrors(error, setError, BRAND_FIELDS);
      if (!placed) toast({ variant: "destructive", title: "Error", description: errorMessage(error, "Failed to save your branding.") });
    }
  });

  const pick = (field: "primaryColor" | "accentColor") => (hex: string) =>
    setValue(field, hex, { shouldDirty: true, shouldValidate: isSubmitted });

  return (
    <div className="grid gap-6">
      <BrandPreview
        name={values.name ?? ""}
        primaryColor={hexOr(values.primaryColor ?? "", brand.primaryColor)}
        accentColor={hexOr(values.accentColor ?? "", brand.accentColor)}
        footer={values.footer ?? ""}
        logoUrl={logoUrl}
      />
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Report branding" className="grid gap-5">
        <div className="grid gap-2">
          <Label htmlFor={f("name")}>Brand name</Label>
          <Input
            id={f("name")}
            maxLength={NAME_MAX}
            autoComplete="organization"
            placeholder="e.g. Acme Capital"
            aria-invalid={Boolean(errors.name)}
            aria-describedby={f("name-message")}
            className="sm:max-w-md"
            {...register("name")}
          />
          {errors.name ? (
            message(errors.name.message, f("name-message"))
          ) : (
            <p id={f("name-message")} className="text-[0.8rem] text-muted-foreground">
              At the top of every page, and the PDF&apos;s author. One line, up to {NAME_MAX} characters.
            </p>
          )}
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <ColourField
            id={f("primary")}
            label="Primary colour"
            hint="The name, headings, rules, table headers and the first chart series."
            warning={
              contrastOnWhite(hexOr(values.primaryColor ?? "", brand.primaryColor)) < FAINT_CONTRAST
                ? "This colour is light: the name and headings will read faintly on white paper."
                : null
            }
            value={values.primaryColor ?? ""}
            fallback={brand.primaryColor}
            error={errors.primaryColor?.message}
            onPick={pick("primaryColor")}
            input={register("primaryColor")}
          />
          <ColourField
            id={f("accent")}
            label="Accent colour"
            hint="Positive bars and the second chart series."
            value={values.accentColor ?? ""}
            fallback={brand.accentColor}
            error={errors.accentColor?.message}
            onPick={pick("accentColor")}
            input={register("accentColor")}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={f("footer")}>Footer</Label>
          <Textarea
            id={f("footer")}
            rows={3}
            maxLength={FOOTER_MAX}
            className="min-h-20"
            placeholder="e.g. Acme Capital LLC · 100 Main Street, Springfield · Not investment advice."
            aria-invalid={Boolean(errors.footer)}
            aria-describedby={f("footer-message")}
            onKeyDown={(e) => {
              // One paragraph: the PDF wraps it to the page (up to three lines).
              if (e.key === "Enter") e.preventDefault();
            }}
            {...register("footer")}
          />
          <div id={f("footer-message")} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 text-[0.8rem]">
            {errors.footer ? (
              <p className="font-medium text-destructive-strong">{errors.footer.message}</p>
            ) : (
              <p className="text-muted-foreground">The line at the foot of every page: a disclaimer, an address. May be empty.</p>
            )}
            <p className="ml-auto text-muted-foreground tabular-nums" data-testid="footer-count">
              {(values.footer ?? "").length}/{FOOTER_MAX} characters
            </p>
          </div>
        </div>
        <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
          <div className="grid gap-1">
            <Label htmlFor={f("monthly")} className="leading-snug">
              Email my portfolio report at the start of each month
            </Label>
            <p id={f("monthly-hint")} className="text-[0.8rem] text-muted-foreground">
              The month just ended, as a PDF emailed to your account&apos;s address before the market opens on the month&apos;s first
              trading day. The first goes out next month; email notifications must be on (
              <Link to="/settings?tab=notifications" className={linkClass}>
                Notifications
              </Link>
              ).
            </p>
          </div>
          <Controller
            control={control}
            name="monthlyEmail"
            render={({ field }) => (
              <Switch
                id={f("monthly")}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                aria-describedby={f("monthly-hint")}
              />
            )}
          />
        </div>
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
          <Button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
            {save.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : null}
            {save.isPending ? "Saving…" : "Save branding"}
          </Button>
          {brand.custom ? (
            <Button type="button" variant="ghost" onClick={() => setConfirming(true)} disabled={save.isPending}>
              <RotateCcwIcon aria-hidden />
              Reset to Strikeline branding
            </Button>
          ) : null}
        </div>
      </form>
      <ConfirmDeleteDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Reset to Strikeline branding?"
        description="Your brand name, colours, footer and logo are deleted, the monthly email stops, and your reports carry the Strikeline brand again. You can set up a brand again at any time."
        confirmLabel="Reset branding"
        pendingLabel="Resetting…"
        pending={resetBrand.isPending}
        remove={() => resetBrand.mutateAsync()}
        success={{ title: "Branding reset", description: "Your reports carry the Strikeline brand again." }}
        failure="Failed to reset your branding."
      />
    </div>
  );
}

/**
 * The logo: a PNG of at most 512 KB (checked here before it is sent, and by the server), set on
 * a saved brand only (the server answers 409 before), shown as saved; Remove logo.
 */
function LogoField({ brand, logoUrl, onUploaded }: { brand: ReportBrandView; logoUrl: string | null; onUploaded: () => void }) {
  const id = useId();
  const upload = useUploadReportLogo();
  const remove = useRemoveReportLogo();
  const [issue, setIssue] = useState<string | null>(null);
  const saved = brand.custom;
  const busy = upload.isPending || remove.isPending;

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Clear the input, so choosing the same file again (after fixing it) is a change too.
    event.target.value = "";
    if (!file) return;
    const problem = logoIssue(file);
    setIssue(problem);
    if (problem) return;
    try {
      await upload.mutateAsync(file);
      onUploaded();
      toast({ title: "Logo uploaded", description: "It appears at the top of every page of your reports." });
    } catch (error) {
      const field = error instanceof ApiError ? error.fieldErrors.find((e) => e.field === "logo") : undefined;
      if (field) setIssue(field.message);
      else setIssue(errorMessage(error, "Failed to upload the logo. Please try again."));
    }
  };

  const removeLogo = async () => {
    setIssue(null);
    try {
      await remove.mutateAsync();
      toast({ title: "Logo removed", description: "Your reports show the brand name without a logo." });
    } catch (error) {
      toast({ variant: "destructive", title: "Error", description: errorMessage(error, "Failed to remove the logo.") });
    }
  };

  const hintId = `${id}-hint`;
  const issueId = `${id}-issue`;
  return (
    <section aria-labelledby={`${id}-title`} className="grid gap-4 border-t pt-5" aria-busy={busy}>
      <div className="grid gap-1">
        <h4 id={`${id}-title`} className="text-sm font-semibold">
          Logo
        </h4>
        <p id={hintId} className="text-[0.8rem] text-muted-foreground">
          {saved
            ? "A PNG of at most 512 KB and 2000 px a side; transparency is kept. It sits left of the name at the top of every page."
            : "Save your brand first: the logo belongs to a saved brand. Then choose a PNG of at most 512 KB and 2000 px a side."}
        </p>
      </div>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        {/* The saved logo on white, as the page shows it; without one, an empty dashed box. */}
        <div
          className={cn(
            "flex h-20 w-full shrink-0 items-center justify-center rounded-md p-2 sm:w-44",
            logoUrl ? "border border-neutral-300 bg-white" : "border border-dashed bg-muted/40",
          )}
          data-testid="logo-preview"
        >
          {logoUrl ? (
            <img src={logoUrl} alt={`${brand.name} logo`} className="max-h-full max-w-full object-contain" />
          ) : (
            <span className="text-xs text-muted-foreground">No logo yet</span>
          )}
        </div>
        <div className="grid min-w-0 gap-2">
          <Label htmlFor={`${id}-file`} className={cn(!saved && "opacity-60")}>
            {logoUrl ? "Replace logo (PNG)" : "Upload logo (PNG)"}
          </Label>
          <input
            id={`${id}-file`}
            type="file"
            accept="image/png"
            disabled={!saved || busy}
            onChange={(e) => void choose(e)}
            aria-describedby={issue ? `${issueId} ${hintId}` : hintId}
            aria-invalid={issue ? true : undefined}
            className={cn(
              "block w-full max-w-xs min-w-0 text-sm text-muted-foreground",
              "file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-input file:bg-card file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-foreground file:shadow-xs hover:file:bg-accent",
              "rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background",
              "disabled:cursor-not-allowed disabled:opacity-50 disabled:file:cursor-not-allowed",
            )}
          />
          <div className="flex flex-wrap items-center gap-2">
            {upload.isPending ? (
              <p role="status" className="inline-flex items-center gap-2 text-sm text-muted-foreground">
                <Loader2Icon className="size-4 animate-spin" aria-hidden /> Uploading the logo…
              </p>
            ) : null}
            {brand.hasLogo ? (
              <Button
                type="button"
                variant="outline"
                size="sm"
                onClick={() => void removeLogo()}
                disabled={busy}
                aria-busy={remove.isPending}
              >
                {remove.isPending ? <Loader2Icon className="animate-spin" aria-hidden /> : null}
                {remove.isPending ? "Removing…" : "Remove logo"}
              </Button>
            ) : null}
          </div>
        </div>
      </div>
      {issue ? (
        <p id={issueId} role="alert" className="text-[0.8rem] font-medium text-destructive-strong">
          {issue}
        </p>
      ) : null}
    </section>
  );
}

/** Premium: the form and the logo, sharing the logo's address (changed after each upload). */
function BrandEditor({ brand }: { brand: ReportBrandView }) {
  const [logoVersion, setLogoVersion] = useState(() => Date.now());
  const logoUrl = brand.hasLogo ? reportLogoUrl(logoVersion) : null;
  return (
    <div className="grid gap-6">
      <BrandForm key={brand.custom ? "saved" : "house"} brand={brand} logoUrl={logoUrl} />
      <LogoField brand={brand} logoUrl={logoUrl} onUploaded={() => setLogoVersion((v) => v + 1)} />
    </div>
  );
}

function CardSkeleton() {
  return (
    <div className="grid gap-4">
      <Skeleton className="h-40 w-full" />
      <Skeleton className="h-10 w-full max-w-md" />
      <Skeleton className="h-10 w-full" />
    </div>
  );
}

/**
 * Settings › Reports: the brand on the account's PDF reports (docs/reports.md). Premium sets
 * its own name, colours, footer, logo and the monthly email, with a live preview of the page
 * header; other plans see it locked, and that reports still download in the house brand.
 */
export function ReportBrandCard() {
  const brand = useReportBrand();
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle className="inline-flex items-center gap-2">
          <FileTextIcon className="size-5 text-muted-foreground" aria-hidden />
          Report branding
        </CardTitle>
        <CardDescription>The name, colours, logo and footer on your PDF reports: portfolio, backtest and track record.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 pt-5">
        <QueryState
          query={brand}
          loadingLabel="Loading your report branding"
          skeleton={<CardSkeleton />}
          errorTitle="Failed to fetch your report branding"
          errorLayout="banner"
        >
          {(view) =>
            view.available ? (
              <BrandEditor brand={view} />
            ) : (
              <div className="grid gap-4">
                <LockedFeature title="Reports in your own brand" plan="Premium" testId="report-brand-locked">
                  Reports in your own brand are part of Premium: your name, colours, logo and footer on every page, and no Strikeline
                  branding anywhere in the file.
                </LockedFeature>
                <WhereReports houseBrand />
              </div>
            )
          }
        </QueryState>
        {brand.data?.available ? <WhereReports houseBrand={false} /> : null}
      </CardContent>
    </Card>
  );
}
