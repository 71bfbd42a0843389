import { type FormEvent, useId, useState } from "react";
import { useNavigate } from "react-router";
import { PasswordInput } from "@/components/password-input";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Label } from "@/components/ui/label";
import { ApiError, errorMessage } from "@/lib/api/client";
import { toast } from "@/lib/toast";
import { useDeleteAccount } from "../api/delete-account";

/**
 * The danger zone: deleting the account (and everything that is its own) needs the password,
 * typed into a dialog. A wrong password is shown under the input; afterwards the app is
 * signed out and goes to the home page.
 */
export function DeleteAccountCard() {
  const id = useId();
  const navigate = useNavigate();
  const mutation = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setPassword("");
      setError(null);
      mutation.reset();
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError("Enter your password");
      return;
    }
    setError(null);
    try {
      await mutation.mutateAsync({ password });
    } catch (cause) {
      const field = cause instanceof ApiError ? cause.fieldErrors.find((e) => e.field === "password")?.message : undefined;
      if (field) setError(field);
      else toast({ variant: "destructive", title: "Error", description: errorMessage(cause, "Failed to delete account") });
      return;
    }
    toast({ title: "Account Deleted", description: "Your account and its data have been deleted." });
    navigate("/", { replace: true });
  };

  return (
    <Card className="border-destructive/40">
      <CardHeader className="border-b border-destructive/20 pb-4">
        <CardTitle className="text-destructive-strong">Danger Zone</CardTitle>
        <CardDescription>Actions here cannot be undone.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-4 pt-5">
        <div className="grid max-w-prose gap-1 text-sm">
          <p className="font-medium">Delete account</p>
          <p className="text-muted-foreground">
            Deletes your account and everything that is yours: positions, generated signals, API keys, sessions and activity.
          </p>
        </div>
        <Dialog open={open} onOpenChange={onOpenChange}>
          <DialogTrigger asChild>
            <Button variant="destructive">Delete Account</Button>
          </DialogTrigger>
          <DialogContent className="max-w-md" role="alertdialog">
            <DialogHeader>
              <DialogTitle>Delete your account?</DialogTitle>
              <DialogDescription>
                Your account and all its data are deleted for good, and you are signed out. Enter your password to confirm.
              </DialogDescription>
            </DialogHeader>
            <form onSubmit={(e) => void onSubmit(e)} noValidate className="grid gap-5">
              <div className="grid gap-2">
                <Label htmlFor={`${id}-password`}>Password</Label>
                <PasswordInput
                  id={`${id}-password`}
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  aria-invalid={Boolean(error)}
                  aria-describedby={error ? `${id}-password-error` : undefined}
                />
                {error ? (
                  <p id={`${id}-password-error`} className="text-[0.8rem] font-medium text-destructive-strong">
                    {error}
                  </p>
                ) : null}
              </div>
              <DialogFooter>
                <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
                  Cancel
                </Button>
                <Button type="submit" variant="destructive" disabled={mutation.isPending}>
                  {mutation.isPending ? "Deleting..." : "Delete My Account"}
                </Button>
              </DialogFooter>
            </form>
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}
