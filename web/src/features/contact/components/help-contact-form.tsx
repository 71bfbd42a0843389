import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { FormField } from "@/components/form-field";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { errorMessage } from "@/lib/api/client";
import { applyServerFieldErrors } from "@/lib/forms";
import { toast } from "@/lib/toast";
import { useSendContactMessage } from "../api/send-contact-message";
import { type HelpContactValues, helpContactSchema } from "../lib/schemas";
import { SUPPORT_RESPONSE_TEXT } from "@/content/company";

const FIELDS = ["name", "email", "subject", "message"] as const;
const EMPTY: HelpContactValues = { name: "", email: "", subject: "", message: "" };

/** The help center's contact form: every field required; POST /api/contact with source "help". */
export function HelpContactForm() {
  const send = useSendContactMessage();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<HelpContactValues>({ resolver: zodResolver(helpContactSchema), defaultValues: EMPTY });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await send.mutateAsync({ ...values, source: "help" });
    } catch (error) {
      applyServerFieldErrors(error, setError, FIELDS);
      toast({
        variant: "destructive",
        title: "Message Not Sent",
        description: errorMessage(error, "Your message could not be sent. Please try again."),
      });
      return;
    }
    toast({ title: "Message Sent", description: `We've received your message and will respond within ${SUPPORT_RESPONSE_TEXT}.` });
    reset(EMPTY);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Contact support">
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="help-name" label="Name" error={errors.name?.message}>
          {(aria) => <Input autoComplete="name" {...aria} {...register("name")} />}
        </FormField>
        <FormField id="help-email" label="Email" error={errors.email?.message}>
          {(aria) => <Input type="email" autoComplete="email" placeholder="you@example.com" {...aria} {...register("email")} />}
        </FormField>
      </div>
      <FormField id="help-subject" label="Subject" error={errors.subject?.message}>
        {(aria) => <Input {...aria} {...register("subject")} />}
      </FormField>
      <FormField id="help-message" label="Message" error={errors.message?.message}>
        {(aria) => <Textarea rows={6} placeholder="Tell us what happened and what you expected." {...aria} {...register("message")} />}
      </FormField>
      <Button type="submit" size="lg" disabled={send.isPending} className="sm:justify-self-start">
        {send.isPending ? "Sending..." : "Send Message"}
      </Button>
    </form>
  );
}

export default HelpContactForm;
