import { z } from "zod";

/** Mirrors the server's validation of POST /api/contact and /api/newsletter. */
const email = z.string().trim().pipe(z.email("Invalid email address"));

const text = (label: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters`);

/** The landing page's contact form: name, email, optional company, message. */
export const landingContactSchema = z.object({
  name: text("Name", 100),
  email,
  company: z.string().trim().max(100, "Company must be at most 100 characters"),
  message: text("Message", 5000),
});
export type LandingContactValues = z.infer<typeof landingContactSchema>;

/** The help center's contact form: every field required. */
export const helpContactSchema = z.object({
  name: text("Name", 100),
  email,
  subject: text("Subject", 200),
  message: text("Message", 5000),
});
export type HelpContactValues = z.infer<typeof helpContactSchema>;

export const newsletterSchema = z.object({ email });
export type NewsletterValues = z.infer<typeof newsletterSchema>;
