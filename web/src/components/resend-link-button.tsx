import { MailIcon } from "lucide-react";
import { Button, type ButtonProps } from "@/components/ui/button";
import { ApiError, errorMessage } from "@/lib/api/client";
import { useResendConfirmation } from "@/lib/api/email-confirmation";
import { toast } from "@/lib/toast";

/**
 * "Send a new link": asks for a new confirmation email and says how it went in a toast. A 409
 * (already confirmed) and a 429 (too many this hour; the server says when to try again) are
 * shown with the server's own words.
 */
export function ResendLinkButton({
  email,
  variant = "outline",
  size = "sm",
  className,
}: { email?: string } & Pick<ButtonProps, "variant" | "size" | "className">) {
  const mutation = useResendConfirmation();
  const send = async () => {
    try {
      await mutation.mutateAsync();
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      toast({
        variant: status === 409 ? "default" : "destructive",
        title: status === 409 ? "Already Confirmed" : status === 429 ? "Too Many Links" : "Link Not Sent",
        description: errorMessage(error, "The link could not be sent. Please try again."),
      });
      return;
    }
    toast({
      title: "Link Sent",
      description: email
        ? `We sent a new link to ${email}. Earlier links no longer work.`
        : "We sent you a new link. Earlier links no longer work.",
    });
  };
  return (
    <Button type="button" variant={variant} size={size} className={className} onClick={() => void send()} disabled={mutation.isPending}>
      <MailIcon aria-hidden />
      {mutation.isPending ? "Sending..." : "Send a new link"}
    </Button>
  );
}
