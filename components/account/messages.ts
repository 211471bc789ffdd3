/** The account screens' texts from SPEC.md section 8, in one place for the screens and their tests. */
export const ACCOUNT_MESSAGES = {
  unknownError: "Unknown error occurred",
  /** The server's details that name a field the schema cannot (lib/server/account). */
  usernameTaken: "That username is taken",
  badLogin: "Incorrect username or password",
  wrongCurrentPassword: "Your current password is incorrect",
  wrongPassword: "Your password is incorrect",
  accountCreated: "Account created!",
  welcomeBack: (name: string) => `Welcome back ${name}!`,
  treesFailed: "Oops, we failed fetch your trees. Refresh the page to try again.",
  passwordSaved: "Password has been saved",
  resetMismatch: "Your new password and the confirm password does not match",
  accountInfoFailed: "Failed to get account info",
  emailUpdated: "Your email address has been updated",
  emailFailed: "Unknown error occurred updating your email",
  passwordUpdated: "Your password has been updated",
  passwordFailed: "Unknown error occurred updating your password",
  accountDeleted: (name: string) => `Account ${name} has now been deleted`,
} as const;
