import type { components } from "./schema";

/** RFC 9457 problem details, as every error answer of the server is shaped. */
export type Problem = components["schemas"]["Problem"];
export type FieldError = components["schemas"]["FieldError"];
