import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "@/lib/query-keys";
import { bodyOf, jsonResponse, makeUser, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { RegisterFooter, RegisterForm } from "./register-form";

afterEach(() => vi.unstubAllGlobals());

type Values = { firstName?: string; lastName?: string; email?: string; username?: string; password?: string };

async function fill(values: Values) {
  const user = userEvent.setup();
  const labels: [keyof Values, string][] = [
    ["firstName", "First Name"],
    ["lastName", "Last Name"],
    ["email", "Email"],
    ["username", "Username"],
    ["password", "Password"],
  ];
  for (const [key, label] of labels) {
    const value = values[key];
    if (value) await user.type(screen.getByLabelText(label), value);
  }
  await user.click(screen.getByRole("button", { name: "Create Account" }));
}

describe("RegisterForm", () => {
  it("shows the validation messages", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderWithProviders(<RegisterForm />, { route: "/register" });
    await fill({ email: "nope", username: "ab", password: "12345" });
    expect(await screen.findByText("Invalid email address")).toBeInTheDocument();
    expect(screen.getByText("Username must be at least 3 characters")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 6 characters")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("has a show/hide password toggle", async () => {
    renderWithProviders(<RegisterForm />, { route: "/register" });
    await userEvent.setup().click(screen.getByRole("button", { name: "Show password" }));
    expect(screen.getByLabelText("Password")).toHaveAttribute("type", "text");
  });

  it("posts the new account, stores the user, toasts and goes to /dashboard", async () => {
    const ada = makeUser();
    let release: (r: Response) => void = () => {};
    const fetchMock = mockFetch(() => new Promise<Response>((resolve) => (release = resolve)));
    const { queryClient } = renderWithProviders(<RegisterForm />, { route: "/register" });

    await fill({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", username: "ada", password: "secret-pass" });
    expect(await screen.findByRole("button", { name: "Creating Account..." })).toBeDisabled();
    expect(bodyOf(fetchMock, "/api/auth/register")).toEqual({
      email: "ada@example.com",
      username: "ada",
      password: "secret-pass",
      firstName: "Ada",
      lastName: "Lovelace",
    });

    release(jsonResponse(ada, 201));
    expect(await screen.findByText("Account Created!")).toBeInTheDocument();
    expect(
      screen.getByText("We sent a link to ada@example.com: open it to confirm your address and start your 14-day Pro trial."),
    ).toBeInTheDocument();
    expect(queryClient.getQueryData(queryKeys.currentUser())).toEqual(ada);
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/dashboard"));
  });

  it("sends empty names when they are left blank", async () => {
    const fetchMock = mockFetch(() => jsonResponse(makeUser({ firstName: null, lastName: null }), 201));
    renderWithProviders(<RegisterForm />, { route: "/register" });
    await fill({ email: "ada@example.com", username: "ada", password: "secret-pass" });
    await screen.findByText("Account Created!");
    expect(bodyOf(fetchMock, "/api/auth/register")).toMatchObject({ firstName: "", lastName: "" });
  });

  it("shows a taken email and username under the inputs and toasts the server message", async () => {
    mockFetch(() =>
      problem(409, "Conflict", "An account with this email or username already exists.", [
        { field: "email", message: "Email is already registered" },
        { field: "username", message: "Username is already taken" },
      ]),
    );
    renderWithProviders(<RegisterForm />, { route: "/register" });
    await fill({ email: "ada@example.com", username: "ada", password: "secret-pass" });

    expect(await screen.findByText("Registration Failed")).toBeInTheDocument();
    expect(screen.getByText("An account with this email or username already exists.")).toBeInTheDocument();
    expect(screen.getByText("Email is already registered")).toBeInTheDocument();
    expect(screen.getByText("Username is already taken")).toBeInTheDocument();
    expect(screen.getByLabelText("Username")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByTestId("location")).toHaveTextContent("/register");
  });

  it("falls back to the generic message without a server message", async () => {
    mockFetch(() => Promise.reject(new TypeError("Failed to fetch")));
    renderWithProviders(<RegisterForm />, { route: "/register" });
    await fill({ email: "ada@example.com", username: "ada", password: "secret-pass" });
    expect(await screen.findByText("Registration Failed")).toBeInTheDocument();
    expect(screen.getByText("Please check your information and try again.")).toBeInTheDocument();
  });

  it("goes on to the page that sent the visitor (?next=, a path on this site), and the sign-in link keeps it", async () => {
    mockFetch(() => jsonResponse(makeUser(), 201));
    const next = "/subscribe?plan=premium&billing=yearly";
    renderWithProviders(
      <>
        <RegisterForm />
        <RegisterFooter />
      </>,
      { route: `/register?next=${encodeURIComponent(next)}` },
    );
    expect(screen.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", `/login?next=${encodeURIComponent(next)}`);
    await fill({ email: "ada@example.com", username: "ada", password: "secret-pass" });
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/subscribe"));
  });

  it("ignores a next that would leave the site", async () => {
    mockFetch(() => jsonResponse(makeUser(), 201));
    renderWithProviders(<RegisterForm />, { route: `/register?next=${encodeURIComponent("//evil.example/x")}` });
    await fill({ email: "ada@example.com", username: "ada", password: "secret-pass" });
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/dashboard"));
  });
});
