// Types for the specs that start a server of their own (billing.spec.ts).
export interface StartedServer {
  baseURL: string;
  stop(): Promise<void>;
  output(): string;
}

export function startServer(options?: {
  timeoutMs?: number;
  env?: Record<string, string>;
  smtpPort?: number | string;
}): Promise<StartedServer>;
