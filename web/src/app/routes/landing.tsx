import { lazy } from "react";
import { DeferredSection } from "@/components/deferred-section";
import { LandingPage } from "@/features/marketing/components/landing-page";

// The contact form (react-hook-form + zod) is below the fold: it loads when the visitor
// scrolls near it, so the landing page's first load stays small.
const ContactForm = lazy(() => import("@/features/contact/components/contact-form"));

export default function LandingRoute() {
  return (
    <LandingPage
      contactForm={
        <DeferredSection minHeight="31rem">
          <ContactForm />
        </DeferredSection>
      }
    />
  );
}
