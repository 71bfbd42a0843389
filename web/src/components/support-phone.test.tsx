import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, makePlanCatalogue, mockFetch, renderWithProviders } from "@/test/utils";
import { SupportPhoneLine } from "./support-phone";

afterEach(() => vi.unstubAllGlobals());

describe("SupportPhoneLine", () => {
  it("shows nothing when the operator configured no phone line: never a placeholder number", async () => {
    const fetchMock = mockFetch(() => jsonResponse({ ...makePlanCatalogue(), supportPhone: null }));
    renderWithProviders(
      <ul>
        <SupportPhoneLine variant="card" />
      </ul>,
    );
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByTestId("support-phone")).toBeNull();
    expect(screen.queryByText(/phone/i)).toBeNull();
  });

  it("shows the configured number and hours", async () => {
    mockFetch(() =>
      jsonResponse({ ...makePlanCatalogue(), supportPhone: { number: "+1 212 555 0100", hours: "Every day, around the clock" } }),
    );
    renderWithProviders(<SupportPhoneLine variant="line" />);
    const line = await screen.findByTestId("support-phone");
    expect(line).toHaveTextContent("+1 212 555 0100Every day, around the clock");
  });
});
