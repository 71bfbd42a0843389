import { zodResolver } from "@hookform/resolvers/zod";
import { MailIcon } from "lucide-react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { errorMessage } from "@/lib/api/client";
import { applyServerFieldErrors } from "@/lib/forms";
import { toast } from "@/lib/toast";
import { useSubscribeNewsletter } from "../api/subscribe-newsletter";
import { type NewsletterValues, newsletterSchema } from "../lib/schemas";

/** The blog's subscribe box: POST /api/newsletter. */
export function NewsletterForm() {
  const subscribe = useSubscribeNewsletter();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<NewsletterValues>({ resolver: zodResolver(newsletterSchema), defaultValues: { email: "" } });

  const onSubmit = handleSubmit(async (values) => {
    let result;
    try {
      result = await subscribe.mutateAsync(values);
    } catch (error) {
      applyServerFieldErrors(error, setError, ["email"]);
      toast({
        variant: "destructive",
        title: "Subscription Failed",
        description: errorMessage(error, "We could not add your email. Please try again."),
      });
      return;
    }
    toast({
      title: "Subscribed",
      description: result.alreadySubscribed
        ? `You're already on the list: new articles go to ${values.email}.`
        : `You're on the list. We'll email new articles to ${values.email}.`,
    });
    reset({ email: "" });
  });

  const error = errors.email?.message;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Subscribe to the newsletter">
      <div className="flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <label htmlFor="newsletter-email" className="sr-only">
            Email address
          </label>
          <MailIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            id="newsletter-email"
            type="email"
            autoComplete="email"
            placeholder="you@example.com"
            className="h-11 pl-9"
            aria-invalid={Boolean(error)}
            aria-describedby={error ? "newsletter-email-message" : undefined}
            {...register("email")}
          />
        </div>
        <Button type="submit" size="lg" disabled={subscribe.isPending}>
          {subscribe.isPending ? "Subscribing..." : "Subscribe"}
        </Button>
      </div>
      {error ? (
        <p id="newsletter-email-message" className="mt-2 text-[0.8rem] font-medium text-destructive-strong">
          {error}
        </p>
      ) : null}
    </form>
  );
}

export default NewsletterForm;
