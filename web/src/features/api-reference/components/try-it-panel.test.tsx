import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, mockFetch, renderWithProviders } from "@/test/utils";
import type { Endpoint } from "../lib/openapi";
import { TryItPanel } from "./try-it-panel";

afterEach(() => vi.unstubAllGlobals());

const STATS: Endpoint = {
  id: "GET /api/v1/stats",
  method: "GET",
  path: "/api/v1/stats",
  tag: "public-api",
  summary: "The dashboard's figures, for API keys.",
  description: "",
  auth: "apiKey",
  parameters: [],
  requestBody: null,
  responses: [],
};

function Harness() {
  const [key, setKey] = useState("");
  return <TryItPanel endpoint={STATS} apiKey={key} onApiKeyChange={setKey} />;
}

describe("TryItPanel", () => {
  it("asks for a key, then sends it as a bearer token and shows status, rate-limit headers and JSON", async () => {
    const fetchMock = mockFetch(() =>
      jsonResponse({ activeSignals: 3 }, 200, { RateLimit: '"hour";r=99;t=3600', "RateLimit-Policy": '"hour";q=100;w=3600' }),
    );
    renderWithProviders(<Harness />);
    const events = userEvent.setup();
    await events.click(screen.getByRole("button", { name: "Send request" }));
    expect(screen.getByText("Paste an API key to send the request.")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    const key = screen.getByLabelText("API key");
    expect(key).toHaveAttribute("type", "password");
    await events.type(key, "slk_TestKey");
    await events.click(screen.getByRole("button", { name: "Send request" }));

    const result = await screen.findByTestId("try-it-result");
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe("/api/v1/stats");
    expect(init).toMatchObject({ method: "GET", credentials: "omit", headers: { Authorization: "Bearer slk_TestKey" } });
    expect(result).toHaveTextContent("200");
    const limits = within(result).getByLabelText("Rate-limit headers");
    expect(limits).toHaveTextContent('RateLimit-Policy"hour";q=100;w=3600');
    expect(limits).toHaveTextContent('RateLimit"hour";r=99;t=3600');
    expect(within(result).getByLabelText("Response body")).toHaveTextContent('"activeSignals": 3');
    expect(screen.getByRole("link", { name: "Settings › API Keys" })).toHaveAttribute("href", "/settings?tab=api-keys");
  });
});
