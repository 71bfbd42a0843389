import { useUser } from "@/features/auth/api/get-me";
import { TrackRecordPage } from "@/features/track-record/components/track-record-page";
import { usePageMeta } from "@/lib/page-meta";

export default function TrackRecordRoute() {
  usePageMeta(
    "Track record",
    "Every live Strikeline signal checked against its outcome: reliability diagrams, Brier scores and calibration error per strategy, from an append-only log with signed tree heads you can verify yourself.",
  );
  // The PDF report is for signed-in accounts (their brand, their report limit).
  const { user } = useUser();
  return <TrackRecordPage signedIn={Boolean(user)} />;
}
