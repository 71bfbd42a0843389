import type { AuditAction } from "@/lib/api/models";

/** Readable names of the audit log's actions. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  sign_in: "Signed in",
  sign_in_failed: "Failed sign-in attempt",
  sign_out: "Signed out",
  password_changed: "Password changed",
  session_revoked: "Session revoked",
  api_key_created: "API key created",
  api_key_toggled: "API key switched on or off",
  api_key_deleted: "API key deleted",
  plan_changed: "Plan changed",
  account_deleted: "Account deleted",
  admin_action: "Administrator action",
  order_placed: "Order placed",
  order_filled: "Order filled",
  order_rejected: "Order refused or rejected",
  order_cancelled: "Order cancelled",
  orders_halted: "Kill switch turned",
  broker_connected: "Broker connected",
  broker_disconnected: "Broker disconnected",
};

/** Actions a user would want to notice when they did not do them. */
export const WARNING_ACTIONS: ReadonlySet<AuditAction> = new Set(["sign_in_failed", "admin_action"]);

/** An action's name; an action this app does not know yet is shown as the server spells it, readably. */
export function auditActionLabel(action: string): string {
  return (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}
