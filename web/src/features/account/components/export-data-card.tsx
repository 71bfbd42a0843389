import { DownloadIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { errorMessage } from "@/lib/api/client";
import { toast } from "@/lib/toast";
import { useExportData } from "../api/export-data";

/** "Your data": downloads everything Strikeline stores about the user as one JSON file. */
export function ExportDataCard() {
  const mutation = useExportData();
  const onClick = async () => {
    try {
      const data = await mutation.mutateAsync();
      const rows = Object.values(data.tables).reduce((sum, table) => sum + table.length, 0);
      toast({
        title: "Data Downloaded",
        description: `${rows.toLocaleString("en-US")} records from ${Object.keys(data.tables).length} tables.`,
      });
    } catch (cause) {
      toast({ variant: "destructive", title: "Error", description: errorMessage(cause, "Failed to download your data") });
    }
  };
  return (
    <Card>
      <CardHeader className="border-b pb-4">
        <CardTitle>Your Data</CardTitle>
        <CardDescription>A copy of everything Strikeline stores about you, as one JSON file.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-4 pt-5">
        <p className="max-w-prose text-sm text-muted-foreground">
          Your profile, settings, positions, signals you generated, alerts, notifications, API keys (without the keys), invoices, messages
          and the security log. How long each is kept is in the{" "}
          <a href="/privacy" className="font-medium text-primary-strong underline-offset-4 hover:underline">
            privacy policy
          </a>
          .
        </p>
        <Button type="button" variant="outline" onClick={onClick} disabled={mutation.isPending} aria-busy={mutation.isPending}>
          <DownloadIcon aria-hidden />
          {mutation.isPending ? "Preparing…" : "Download your data"}
        </Button>
      </CardContent>
    </Card>
  );
}
