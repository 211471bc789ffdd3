import { z } from "zod";
import "./zod-config";

export const MIN_PASSWORD_LENGTH = 8;
/** argon2 hashes any length; the cap only stops absurd bodies. */
const MAX_PASSWORD_LENGTH = 1024;

export const username = z
  .string({ error: "Username is required" })
  .trim()
  .regex(
    /^[A-Za-z0-9._-]{3,32}$/,
    "Usernames are 3 to 32 characters: letters, numbers, dots, dashes and underscores",
  );

/** An email address, trimmed and lower-cased; `invalid` is the message for a malformed one. */
export const emailField = (invalid: string) =>
  z
    .string({ error: "Email address is required" })
    .trim()
    .min(1, "Email address is required")
    .max(254, invalid)
    .pipe(z.email(invalid))
    .transform((value) => value.toLowerCase());

/** The Account page's rule, with the spec's text. */
export const email = emailField("Looks like your new email is not valid");
const anyEmail = emailField("That email address is not valid");

const newPassword = z
  .string({ error: "A password is required" })
  .min(MIN_PASSWORD_LENGTH, "Your new password should be at least 8 characters")
  .max(MAX_PASSWORD_LENGTH, "Your password is too long");

const anyPassword = z
  .string({ error: "Your password is required" })
  .min(1, "Your password is required")
  .max(MAX_PASSWORD_LENGTH, "Your password is too long");

export const signupBody = z.object({
  username,
  email: anyEmail,
  password: z
    .string({ error: "A password is required" })
    .min(MIN_PASSWORD_LENGTH, "Your password should be at least 8 characters")
    .max(MAX_PASSWORD_LENGTH, "Your password is too long"),
});

export const signinBody = z.object({
  username: z.string({ error: "Username is required" }).min(1, "Username is required").max(64),
  password: anyPassword,
});

export const forgotPasswordBody = z.object({
  username: z
    .string({ error: "Username is required" })
    .trim()
    .min(1, "Username is required")
    .max(64),
});

export const forgotUsernameBody = z.object({ email: anyEmail });

export const resetPasswordBody = z.object({
  username: z.string({ error: "Username is required" }).min(1, "Username is required").max(64),
  password: newPassword,
  token: z
    .string({ error: "The reset link is not valid" })
    .min(1, "The reset link is not valid")
    .max(256),
});

/** The 400 of an email change without the password from a session older than 10 minutes. */
export const EMAIL_CHANGE_NEEDS_PASSWORD =
  "Please enter your current password to change your email address";

/**
 * The current password is optional: without it the change needs a session signed in within the
 * last 10 minutes (issue 22.5; the original client's form has no password field). An empty one
 * counts as not given.
 */
export const updateEmailBody = z.object({
  email,
  password: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z
      .string({ error: "Your password must be text" })
      .max(MAX_PASSWORD_LENGTH, "Your password is too long")
      .optional(),
  ),
});

export const restoreEmailBody = z.object({
  username: z.string({ error: "Username is required" }).min(1, "Username is required").max(64),
  token: z
    .string({ error: "The restore link is not valid" })
    .min(1, "The restore link is not valid")
    .max(256),
});

export const updatePasswordBody = z
  .object({
    oldPassword: anyPassword,
    newPassword,
    confirmPassword: z
      .string({ error: "Please confirm your new password" })
      .max(MAX_PASSWORD_LENGTH),
  })
  .refine((body) => body.newPassword === body.confirmPassword, {
    message: "Looks like your new and confirmation passwords don't match",
    path: ["confirmPassword"],
  });

export const deleteAccountBody = z.object({
  password: z
    .string({ error: "Your password is required to delete this account" })
    .min(1, "Your password is required to delete this account")
    .max(MAX_PASSWORD_LENGTH),
});

export const tokenResponse = z.object({ token: z.string() });
export const userResponse = z.object({ _id: z.string(), email: z.string() });

export type SignupBody = z.infer<typeof signupBody>;
export type UpdateEmailBody = z.infer<typeof updateEmailBody>;
export type RestoreEmailBody = z.infer<typeof restoreEmailBody>;
export type UpdatePasswordBody = z.infer<typeof updatePasswordBody>;
