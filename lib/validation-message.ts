import { z } from "zod";

const english = z.locales.en();

/**
 * A readable sentence for the first problem in a zod error. Messages written in the schemas (the
 * spec's texts) are used as they are; zod's generic ones are prefixed with the field's path.
 */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "The request is not valid";
  const generic = english.localeError(
    issue as unknown as Parameters<typeof english.localeError>[0],
  );
  const genericText = typeof generic === "string" ? generic : generic?.message;
  // Finished issues no longer carry their input, so "received …" can differ; compare without it.
  const withoutReceived = (text?: string) => text?.replace(/, received .*$/, "");
  const path = issue.path.map(String).join(".");
  if (!path || withoutReceived(issue.message) !== withoutReceived(genericText))
    return issue.message;
  return `${path}: ${issue.message}`;
}
