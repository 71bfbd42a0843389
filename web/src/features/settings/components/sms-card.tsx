import { CheckCircle2Icon, MessageSquareTextIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { LockedFeature } from "@/components/locked-feature";
import { QueryState } from "@/components/query-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { ApiError, errorMessage } from "@/lib/api/client";
import type { QuietHours, SmsSettings } from "@/lib/api/models";
import { toast } from "@/lib/toast";
import { useRemoveSmsPhone, useSaveSmsPreferences, useSendSmsCode, useSmsSettings, useVerifySmsCode } from "../api/sms";
import { KindSwitches } from "./kind-switches";

/** The server's message for `field` in a 422, else null. */
function fieldMessage(error: unknown, field: string): string | null {
  return error instanceof ApiError ? (error.fieldErrors.find((f) => f.field === field)?.message ?? null) : null;
}

/** A number and the code texted to it: enter the number, then the six digits. */
function PhoneForm({ settings }: { settings: SmsSettings }) {
  const send = useSendSmsCode();
  const verify = useVerifySmsCode();
  const [phone, setPhone] = useState(settings.phone ?? "");
  const [code, setCode] = useState("");
  const [changing, setChanging] = useState(false);
  const phoneId = useId();
  const codeId = useId();
  const waiting = settings.codePending && !changing;

  function sendCode(event?: FormEvent) {
    event?.preventDefault();
    send.mutate(phone, {
      onSuccess: () => {
        setChanging(false);
        setCode("");
        toast({ title: "Code sent", description: "We texted you a six-digit code. It expires in 10 minutes." });
      },
      onError: (error) => {
        if (!fieldMessage(error, "phone"))
          toast({ variant: "destructive", title: "Error", description: errorMessage(error, "The code could not be sent.") });
      },
    });
  }

  function submitCode(event: FormEvent) {
    event.preventDefault();
    verify.mutate(code, { onSuccess: () => toast({ title: "Number verified", description: "Texts will go to this number." }) });
  }

  if (waiting) {
    const codeError = fieldMessage(verify.error, "code");
    return (
      <form className="grid gap-3" onSubmit={submitCode} noValidate>
        <p className="text-sm text-muted-foreground">
          We texted a code to <span className="font-medium text-foreground">{settings.phone}</span>.
        </p>
        <div className="grid gap-1.5 sm:max-w-xs">
          <Label htmlFor={codeId}>Code</Label>
          <Input
            id={codeId}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
            aria-invalid={codeError ? true : undefined}
            aria-describedby={codeError ? `${codeId}-error` : undefined}
          />
          {codeError ? (
            <p id={`${codeId}-error`} className="text-sm text-destructive">
              {codeError}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" disabled={verify.isPending || code.length !== 6}>
            {verify.isPending ? "Verifying…" : "Verify"}
          </Button>
          <Button type="button" variant="outline" size="sm" onClick={() => sendCode()} disabled={send.isPending}>
            Send a new code
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => setChanging(true)}>
            Use another number
          </Button>
        </div>
      </form>
    );
  }
  const phoneError = fieldMessage(send.error, "phone");
  return (
    <form className="grid gap-3" onSubmit={sendCode} noValidate>
      <div className="grid gap-1.5 sm:max-w-xs">
        <Label htmlFor={phoneId}>Mobile number</Label>
        <Input
          id={phoneId}
          type="tel"
          autoComplete="tel"
          placeholder="+1 202 555 0143"
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          aria-invalid={phoneError ? true : undefined}
          aria-describedby={`${phoneId}-hint`}
        />
        <p id={`${phoneId}-hint`} className={phoneError ? "text-sm text-destructive" : "text-xs text-muted-foreground"}>
          {phoneError ?? "International form: + then the country code. We text a code to check it."}
        </p>
      </div>
      <div>
        <Button type="submit" size="sm" disabled={send.isPending || phone.trim() === ""}>
          {send.isPending ? "Sending…" : "Send code"}
        </Button>
      </div>
    </form>
  );
}

/** The verified number, with the kinds texted and the quiet hours. */
function Verified({ settings }: { settings: SmsSettings }) {
  const save = useSaveSmsPreferences();
  const remove = useRemoveSmsPhone();
  const quietId = useId();
  const [quiet, setQuiet] = useState<QuietHours>(settings.quietHours ?? { start: "22:00", end: "07:00" });
  const saveWith = (change: { events?: SmsSettings["events"]; quietHours?: QuietHours | null }) =>
    save.mutate(
      { events: change.events ?? settings.events, quietHours: change.quietHours === undefined ? settings.quietHours : change.quietHours },
      {
        onError: (error) =>
          toast({
            variant: "destructive",
            title: "Error",
            description: errorMessage(error, "Failed to update settings. Please try again."),
          }),
      },
    );
  return (
    <div className="grid gap-5">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border p-4">
        <p className="inline-flex items-center gap-2 text-sm font-medium">
          <CheckCircle2Icon className="size-4 text-emerald-600 dark:text-emerald-400" aria-hidden />
          Texts go to {settings.phone}
        </p>
        <Button variant="outline" size="sm" onClick={() => remove.mutate(undefined)} disabled={remove.isPending}>
          Remove number
        </Button>
      </div>
      {settings.optedOut ? (
        <p role="status" className="rounded-lg border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm">
          This number replied STOP, so nothing is texted to it. Reply START to any of our texts to turn them on again.
        </p>
      ) : null}
      <KindSwitches legend="What to text" chosen={settings.events} onChange={(events) => saveWith({ events })} />
      <div className="grid gap-3">
        <div className="flex items-start justify-between gap-4">
          <div className="grid gap-1">
            <Label htmlFor={quietId}>Quiet hours</Label>
            <p className="text-sm text-muted-foreground">Texts wait until they end (New York time, the market's clock).</p>
          </div>
          <Switch
            id={quietId}
            checked={settings.quietHours !== null}
            onCheckedChange={(on) => saveWith({ quietHours: on ? quiet : null })}
          />
        </div>
        {settings.quietHours !== null ? (
          <div className="flex flex-wrap items-end gap-3">
            {(["start", "end"] as const).map((edge) => (
              <div key={edge} className="grid gap-1.5">
                <Label htmlFor={`${quietId}-${edge}`}>{edge === "start" ? "From" : "Until"}</Label>
                <Input
                  id={`${quietId}-${edge}`}
                  type="time"
                  className="w-32"
                  value={quiet[edge]}
                  onChange={(e) => setQuiet({ ...quiet, [edge]: e.target.value })}
                  onBlur={() => {
                    if (quiet.start !== settings.quietHours?.start || quiet.end !== settings.quietHours?.end)
                      saveWith({ quietHours: quiet });
                  }}
                />
              </div>
            ))}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/**
 * Settings › Notifications › Text messages (Pro and up, as the one entitlement check lists
 * `smsNotifications`), shown where the deployment texts (`offered`): the number and its code,
 * then the kinds texted and the quiet hours. A plan without texts sees it locked and can still
 * remove a number it set.
 */
export function SmsCard({ available }: { available: boolean }) {
  const sms = useSmsSettings();
  if (sms.data && !sms.data.offered && !sms.data.phone) return null;
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle className="inline-flex items-center gap-2">
          <MessageSquareTextIcon className="size-5 text-muted-foreground" aria-hidden />
          Text messages
        </CardTitle>
        <CardDescription>Alerts to your phone by SMS. Standard message rates may apply.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 pt-5">
        <QueryState
          query={sms}
          loadingLabel="Loading your text-message settings"
          skeleton={<SkeletonRows count={2} className="h-12 w-full" />}
          errorTitle="Failed to fetch text-message settings"
          errorLayout="banner"
        >
          {(settings) =>
            !available ? (
              <div className="grid gap-4">
                <LockedFeature title="Included in Pro and Premium" plan="Pro" testId="sms-locked">
                  Price alerts and closed positions by text, with quiet hours.
                </LockedFeature>
                {settings.phone ? <RemoveOnly phone={settings.phone} /> : null}
              </div>
            ) : settings.verified ? (
              <Verified key={settings.phone} settings={settings} />
            ) : (
              <PhoneForm key={`${settings.phone}-${settings.codePending}`} settings={settings} />
            )
          }
        </QueryState>
      </CardContent>
    </Card>
  );
}

function RemoveOnly({ phone }: { phone: string }) {
  const remove = useRemoveSmsPhone();
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <span>Your number on file: {phone}</span>
      <Button variant="outline" size="sm" onClick={() => remove.mutate(undefined)} disabled={remove.isPending}>
        Remove number
      </Button>
    </div>
  );
}
