import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { QueryError, type QueryLike, QueryState } from "./query-state";

function query<T>(state: Partial<QueryLike<T>>): QueryLike<T> {
  return { data: undefined, isPending: false, isError: false, error: null, refetch: vi.fn(), ...state };
}

function renderState(q: QueryLike<string[]>, props: Partial<Parameters<typeof QueryState<string[]>>[0]> = {}) {
  return render(
    <QueryState
      query={q}
      loadingLabel="Loading fruit"
      skeleton={<div data-testid="skeleton" />}
      errorTitle="Failed to fetch fruit"
      isEmpty={(list) => list.length === 0}
      empty={<p>No fruit yet</p>}
      {...props}
    >
      {(list) => (
        <ul aria-label="Fruit">
          {list.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
    </QueryState>,
  );
}

describe("QueryState", () => {
  it("shows the skeleton in a busy status region named by the label while loading", () => {
    renderState(query({ isPending: true }));
    const status = screen.getByRole("status");
    expect(status).toHaveAttribute("aria-busy", "true");
    expect(status).toHaveAccessibleName("Loading fruit");
    expect(status).toHaveTextContent("Loading fruit");
    expect(screen.getByTestId("skeleton")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.queryByRole("list")).not.toBeInTheDocument();
  });

  it("can show the loading label as text", () => {
    renderState(query({ isPending: true }), { showLoadingLabel: true });
    expect(screen.getByText("Loading fruit")).toBeVisible();
    expect(screen.getByText("Loading fruit").tagName).toBe("P");
  });

  it("shows the error title in an alert, and 'Try again' refetches", async () => {
    const q = query<string[]>({ isError: true, error: new Error("boom") });
    renderState(q);
    expect(screen.getByRole("alert")).toHaveTextContent("Failed to fetch fruit");
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(q.refetch).toHaveBeenCalledTimes(1);
  });

  it("words the error from the error itself when given a function, with a detail line", () => {
    renderState(query({ isError: true, error: new Error("503") }), {
      errorTitle: (error) => `Failed: ${(error as Error).message}`,
      errorDetail: "Check your connection and try again.",
      errorLayout: "panel",
    });
    expect(screen.getByRole("alert")).toHaveTextContent("Failed: 503Check your connection and try again.");
  });

  it("shows the empty state when the answer has nothing in it", () => {
    renderState(query({ data: [] }));
    expect(screen.getByText("No fruit yet")).toBeInTheDocument();
    expect(screen.queryByRole("list")).not.toBeInTheDocument();
  });

  it("renders the children with the data", () => {
    renderState(query({ data: ["apple", "pear"] }));
    expect(screen.getByRole("list", { name: "Fruit" })).toHaveTextContent("applepear");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });

  it("renders the children when the answer is empty and there is no empty state", () => {
    renderState(query({ data: [] }), { empty: undefined });
    expect(screen.getByRole("list", { name: "Fruit" })).toBeEmptyDOMElement();
  });

  describe("when a refetch fails with data on screen", () => {
    const failed = () => query({ data: ["apple"], isError: true, error: new Error("boom") });

    it("replaces the data with the error by default", () => {
      renderState(failed());
      expect(screen.getByRole("alert")).toHaveTextContent("Failed to fetch fruit");
      expect(screen.queryByRole("list")).not.toBeInTheDocument();
    });

    it("keeps the data without a word with staleData 'show'", () => {
      renderState(failed(), { staleData: "show" });
      expect(screen.getByRole("list", { name: "Fruit" })).toHaveTextContent("apple");
      expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    });

    it("keeps the data under the error with staleData 'show-with-error'", () => {
      renderState(failed(), { staleData: "show-with-error" });
      expect(screen.getByRole("alert")).toHaveTextContent("Failed to fetch fruit");
      expect(screen.getByRole("list", { name: "Fruit" })).toHaveTextContent("apple");
    });

    it("shows the error alone when what is kept is empty", () => {
      renderState(query({ data: [], isError: true }), { staleData: "show" });
      expect(screen.getByRole("alert")).toBeInTheDocument();
      expect(screen.queryByText("No fruit yet")).not.toBeInTheDocument();
    });
  });
});

describe("QueryError", () => {
  it("is an alert with the title and a 'Try again' button", async () => {
    const onRetry = vi.fn();
    render(<QueryError title="Failed to fetch stats" layout="banner" onRetry={onRetry} />);
    expect(screen.getByRole("alert")).toHaveTextContent("Failed to fetch stats");
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});
