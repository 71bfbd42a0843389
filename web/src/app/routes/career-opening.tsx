import { useParams } from "react-router";
import { findOpening } from "@/content/careers";
import { OpeningPage } from "@/features/careers/components/opening-page";
import NotFoundRoute from "./not-found";

export default function CareerOpeningRoute() {
  const { slug } = useParams();
  const opening = findOpening(slug);
  if (!opening) return <NotFoundRoute embedded />;
  return <OpeningPage key={opening.slug} opening={opening} />;
}
