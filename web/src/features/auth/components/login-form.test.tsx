import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "@/lib/query-keys";
import { bodyOf, jsonResponse, makeUser, mockFetch, problem, renderWithProviders } from "@/test/utils";
import { LoginForm } from "./login-form";

afterEach(() => vi.unstubAllGlobals());

async function fill(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText("Email"), email);
  if (password) await user.type(screen.getByLabelText("Password"), password);
  await user.click(screen.getByRole("button", { name: "Sign In" }));
  return user;
}

describe("LoginForm", () => {
  it("shows the validation messages and sends nothing", async () => {
    const fetchMock = mockFetch(() => jsonResponse({}));
    renderWithProviders(<LoginForm />, { route: "/login" });
    await fill("not-an-email", "123");
    expect(await screen.findByText("Invalid email address")).toBeInTheDocument();
    expect(screen.getByText("Password must be at least 6 characters")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("toggles the password's visibility with an accessible button", async () => {
    renderWithProviders(<LoginForm />, { route: "/login" });
    const user = userEvent.setup();
    const input = screen.getByLabelText("Password");
    expect(input).toHaveAttribute("type", "password");
    await user.click(screen.getByRole("button", { name: "Show password" }));
    expect(input).toHaveAttribute("type", "text");
    await user.click(screen.getByRole("button", { name: "Hide password" }));
    expect(input).toHaveAttribute("type", "password");
  });

  it("posts the credentials, stores the user, toasts and goes to /dashboard", async () => {
    const ada = makeUser();
    let release: (r: Response) => void = () => {};
    const fetchMock = mockFetch(() => new Promise<Response>((resolve) => (release = resolve)));
    const { queryClient } = renderWithProviders(<LoginForm />, { route: "/login" });

    await fill("ada@example.com", "secret-pass");
    expect(await screen.findByRole("button", { name: "Signing In..." })).toBeDisabled();
    expect(bodyOf(fetchMock, "/api/auth/login")).toEqual({ email: "ada@example.com", password: "secret-pass" });
    expect(fetchMock.mock.calls[0][1]).toMatchObject({ method: "POST", credentials: "same-origin" });

    release(jsonResponse(ada));
    expect(await screen.findByText("Welcome back!")).toBeInTheDocument();
    expect(screen.getByText("You have successfully logged in.")).toBeInTheDocument();
    expect(queryClient.getQueryData(queryKeys.currentUser())).toEqual(ada);
    await waitFor(() => expect(screen.getByTestId("location")).toHaveTextContent("/dashboard"));
  });

  it("shows 'Login Failed' with the server's message", async () => {
    mockFetch(() => problem(401, "Unauthorized", "Invalid email or password"));
    renderWithProviders(<LoginForm />, { route: "/login" });
    await fill("ada@example.com", "wrong-pass");
    expect(await screen.findByText("Login Failed")).toBeInTheDocument();
    expect(screen.getByText("Invalid email or password")).toBeInTheDocument();
    expect(screen.getByTestId("location")).toHaveTextContent("/login");
    expect(screen.getByRole("button", { name: "Sign In" })).toBeEnabled();
  });

  it("shows a rate-limit message as the server words it", async () => {
    mockFetch(() =>
      jsonResponse(
        { type: "about:blank", title: "Too Many Requests", status: 429, detail: "Too many sign-in attempts. Try again in 60 seconds." },
        429,
        { "Retry-After": "60" },
      ),
    );
    renderWithProviders(<LoginForm />, { route: "/login" });
    await fill("ada@example.com", "wrong-pass");
    expect(await screen.findByText("Too many sign-in attempts. Try again in 60 seconds.")).toBeInTheDocument();
  });

  it("falls back to 'Invalid email or password' when the server sends no message", async () => {
    mockFetch(() => new Response("", { status: 500, statusText: "Internal Server Error" }));
    renderWithProviders(<LoginForm />, { route: "/login" });
    await fill("ada@example.com", "secret-pass");
    expect(await screen.findByText("Login Failed")).toBeInTheDocument();
    expect(screen.getByText("Invalid email or password")).toBeInTheDocument();
  });

  it("shows server field errors under the inputs", async () => {
    mockFetch(() =>
      problem(422, "Unprocessable Entity", "The request has invalid fields.", [{ field: "email", message: "Email is too long" }]),
    );
    renderWithProviders(<LoginForm />, { route: "/login" });
    await fill("ada@example.com", "secret-pass");
    expect(await screen.findByText("Email is too long")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
  });
});
