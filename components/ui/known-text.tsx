"use client";
import { useTranslations } from "next-intl";
import { useCallback } from "react";

/**
 * The server's and the forms' own English sentences (SPEC.md section 8 and lib/schemas/account.ts)
 * that Heirloom knows, shown in the reader's language by their text (issue 36): the API's
 * messages stay the contract's English, and the UI translates the ones it knows. An unknown text
 * is shown as it came. In English every sentence is its own translation, letter for letter.
 */
export function useKnownText(): (text: string) => string {
  const t = useTranslations("KnownTexts");
  return useCallback(
    (text: string) => {
      switch (text) {
        case "Username is required":
          return t("usernameRequired");
        case "Usernames are 3 to 32 characters: letters, numbers, dots, dashes and underscores":
          return t("usernameRule");
        case "Email address is required":
          return t("emailRequired");
        case "Looks like your new email is not valid":
          return t("newEmailInvalid");
        case "That email address is not valid":
          return t("emailInvalid");
        case "A password is required":
          return t("passwordRequired");
        case "Your password is required":
          return t("yourPasswordRequired");
        case "Your password is required to delete this account":
          return t("deletePasswordRequired");
        case "Your password should be at least 8 characters":
          return t("passwordTooShort");
        case "Your new password should be at least 8 characters":
          return t("newPasswordTooShort");
        case "Your password is too long":
          return t("passwordTooLong");
        case "Looks like your new and confirmation passwords don't match":
          return t("passwordsDiffer");
        case "Please confirm your new password":
          return t("confirmPassword");
        case "Please enter your current password to change your email address":
          return t("emailNeedsPassword");
        case "Incorrect username or password":
          return t("badLogin");
        case "That username is taken":
          return t("usernameTaken");
        case "Your current password is incorrect":
          return t("wrongCurrentPassword");
        case "Your password is incorrect":
          return t("wrongPassword");
        case "This reset link is invalid or has expired":
          return t("resetLinkInvalid");
        case "This restore link is invalid or has expired":
          return t("restoreLinkInvalid");
        default:
          return text;
      }
    },
    [t],
  );
}
