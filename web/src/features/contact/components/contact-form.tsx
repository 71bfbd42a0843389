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
import { type LandingContactValues, landingContactSchema } from "../lib/schemas";
import { SUPPORT_RESPONSE_TEXT } from "@/content/company";

const FIELDS = ["name", "email", "company", "message"] as const;
const EMPTY: LandingContactValues = { name: "", email: "", company: "", message: "" };

/** The landing page's contact form (#contact): stored by POST /api/contact with source "landing". */
export function ContactForm() {
  const send = useSendContactMessage();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<LandingContactValues>({ resolver: zodResolver(landingContactSchema), defaultValues: EMPTY });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await send.mutateAsync({
        name: values.name,
        email: values.email,
        company: values.company || null,
        message: values.message,
        source: "landing",
      });
    } catch (error) {
      applyServerFieldErrors(error, setError, FIELDS);
      toast({
        variant: "destructive",
        title: "Message Not Sent",
        description: errorMessage(error, "Your message could not be sent. Please try again."),
      });
      return;
    }
    toast({ title: "Message Sent", description: `We'll get back to you within ${SUPPORT_RESPONSE_TEXT}.` });
    reset(EMPTY);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-labelledby="contact-form-title">
      <h3 id="contact-form-title" className="text-lg font-semibold">
        Send us a message
      </h3>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="contact-name" label="Name" error={errors.name?.message}>
          {(aria) => <Input autoComplete="name" {...aria} {...register("name")} />}
        </FormField>
        <FormField id="contact-email" label="Email" error={errors.email?.message}>
          {(aria) => <Input type="email" autoComplete="email" placeholder="you@example.com" {...aria} {...register("email")} />}
        </FormField>
      </div>
      <FormField id="contact-company" label="Company (optional)" error={errors.company?.message}>
        {(aria) => <Input autoComplete="organization" {...aria} {...register("company")} />}
      </FormField>
      <FormField id="contact-message" label="Message" error={errors.message?.message}>
        {(aria) => <Textarea rows={5} placeholder="How can we help?" {...aria} {...register("message")} />}
      </FormField>
      <Button type="submit" size="lg" disabled={send.isPending} className="sm:justify-self-start">
        {send.isPending ? "Sending..." : "Send Message"}
      </Button>
    </form>
  );
}

export default ContactForm;
