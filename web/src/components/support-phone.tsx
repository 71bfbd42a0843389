import { PhoneIcon } from "lucide-react";
import { usePlans } from "@/lib/api/plans";

/**
 * The operator's phone line (Premium), from GET /api/plans: shown only when the deployment
 * configured one (`support.phone`), never a placeholder; nothing otherwise.
 */
export function SupportPhoneLine({ variant }: { variant: "card" | "line" }) {
  const phone = usePlans().data?.supportPhone;
  if (!phone) return null;
  if (variant === "line") {
    return (
      <p className="flex gap-2.5" data-testid="support-phone">
        <PhoneIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
        <span>
          <span className="tabular">{phone.number}</span>
          {phone.hours ? <span className="block text-muted-foreground">{phone.hours}</span> : null}
        </span>
      </p>
    );
  }
  return (
    <li className="flex gap-4 rounded-xl border bg-card p-5" data-testid="support-phone">
      <PhoneIcon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
      <div>
        <h3 className="font-semibold">Phone support</h3>
        <p className="mt-1 text-sm text-muted-foreground">For Premium subscribers{phone.hours ? `: ${phone.hours}` : ""}.</p>
        <p className="mt-2 text-sm font-medium tabular">{phone.number}</p>
      </div>
    </li>
  );
}
