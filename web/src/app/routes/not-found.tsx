import { NotFoundScreen } from "@/components/not-found-screen";
import { useUser } from "@/features/auth/api/get-me";

/** 404 for signed-in users' unknown paths and, inside the public layout, for unknown slugs. */
export default function NotFoundRoute({ embedded = false }: { embedded?: boolean }) {
  const { isAuthenticated } = useUser();
  const screen = <NotFoundScreen embedded={embedded} homeLabel={isAuthenticated ? "Back to Dashboard" : "Back to Home"} />;
  return embedded ? screen : <main>{screen}</main>;
}
