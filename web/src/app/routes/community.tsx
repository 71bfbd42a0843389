import { useUser } from "@/features/auth/api/get-me";
import { CommunityPage } from "@/features/community/components/community-page";

export default function CommunityRoute() {
  const { isAuthenticated } = useUser();
  return <CommunityPage signedIn={isAuthenticated} />;
}
