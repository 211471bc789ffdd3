import { describe, expect, it } from "vitest";
import { deleteAccountBody, updateEmailBody, updatePasswordBody } from "@/lib/schemas/account";
import { checkForm, formText } from "./form";

describe("checkForm", () => {
  it.each([
    [updateEmailBody, { email: "nope" }, "Looks like your new email is not valid", "email"],
    [
      updatePasswordBody,
      { oldPassword: "old-password", newPassword: "short", confirmPassword: "short" },
      "Your new password should be at least 8 characters",
      "newPassword",
    ],
    [
      updatePasswordBody,
      { oldPassword: "old-password", newPassword: "long-enough", confirmPassword: "different!" },
      "Looks like your new and confirmation passwords don't match",
      "confirmPassword",
    ],
    [
      deleteAccountBody,
      { password: "" },
      "Your password is required to delete this account",
      "password",
    ],
  ] as const)("reports the spec's message and its field (%#)", (schema, values, message, field) => {
    const checked = checkForm(schema, values);
    expect(checked).toMatchObject({ ok: false, message, errors: { [field]: message } });
  });

  it("returns the parsed data when the values are valid", () => {
    expect(checkForm(updateEmailBody, { email: " Bella@Example.TEST " })).toEqual({
      ok: true,
      data: { email: "bella@example.test" },
    });
  });
});

describe("formText", () => {
  it("reads text fields and treats missing ones as empty", () => {
    const values = new FormData();
    values.set("username", "Bella");
    expect(formText(values, "username")).toBe("Bella");
    expect(formText(values, "email")).toBe("");
  });
});
