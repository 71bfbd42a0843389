import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import type * as React from "react";
import { ErrorBoundary } from "@/components/error-boundary";
import { FullPageSpinner } from "@/components/spinner";
import { createQueryClient } from "@/lib/query-client";
import { useToasts } from "@/lib/toast";
import { watchTheme } from "@/lib/theme";

const Toaster = lazy(() => import("@/components/ui/toaster").then((m) => ({ default: m.Toaster })));

/**
 * The toast viewport (Radix Toast) is loaded with the first toast and then stays, so pages
 * that never toast do not download it.
 */
function LazyToaster() {
  const count = useToasts().length;
  const [needed, setNeeded] = useState(count > 0);
  useEffect(() => {
    if (count > 0) setNeeded(true);
  }, [count]);
  return needed || count > 0 ? (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  ) : null;
}

/** Everything the app needs around its routes: query cache, theme, toasts, error boundary. */
export function AppProvider({ children, queryClient }: { children: React.ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  useEffect(() => watchTheme(), []);
  return (
    <ErrorBoundary>
      <QueryClientProvider client={client}>
        <Suspense fallback={<FullPageSpinner />}>{children}</Suspense>
        <LazyToaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
