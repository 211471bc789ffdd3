import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeZodError } from "./validation-message";

const detail = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a failure");
  return describeZodError(result.error);
};

describe("describeZodError", () => {
  it.each([
    [
      "a generic type error names its field",
      z.object({ a: z.object({ x: z.number().int() }) }),
      { a: { x: 1.5 } },
      "a.x: Invalid input: expected int, received number",
    ],
    [
      "a missing field names its field",
      z.object({ title: z.string() }),
      {},
      "title: Invalid input: expected string, received undefined",
    ],
    [
      "a message written in the schema is used verbatim",
      z.object({ email: z.email("Looks like your new email is not valid") }),
      { email: "nope" },
      "Looks like your new email is not valid",
    ],
    [
      "a top-level problem has no path",
      z.string(),
      5,
      "Invalid input: expected string, received number",
    ],
  ])("%s", (_name, schema, value, expected) => {
    expect(detail(schema, value)).toBe(expected);
  });
});
