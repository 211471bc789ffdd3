import "server-only";
import type { MailMessage } from "@/lib/server/mail";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

function layout(paragraphs: string[]): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${p}</p>`).join("\n");
  return `<!doctype html>
<html><body style="font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#1f2937;max-width:560px;margin:0 auto;padding:24px">
${body}
</body></html>`;
}

const button = (href: string, label: string) =>
  `<a href="${escapeHtml(href)}" style="display:inline-block;background:#15803d;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold">${escapeHtml(label)}</a>`;

/** The "reset your password" mail; `link` carries the one-time token. */
export function passwordResetEmail(input: {
  to: string;
  username: string;
  link: string;
  appUrl: string;
}): MailMessage {
  const { to, username, link, appUrl } = input;
  return {
    to,
    subject: "Reset your Heirloom password",
    text: [
      `Hi ${username},`,
      "",
      `Someone (hopefully you) asked to reset the password of your Heirloom account "${username}".`,
      "Open this link within the next hour to choose a new password:",
      "",
      link,
      "",
      "The link works only once. If you didn't ask for this, you can safely ignore this email: your password stays the same.",
      "",
      "Happy building,",
      "Heirloom",
      appUrl,
      "",
    ].join("\n"),
    html: layout([
      `Hi ${escapeHtml(username)},`,
      `Someone (hopefully you) asked to reset the password of your Heirloom account <strong>${escapeHtml(username)}</strong>. Use the button below within the next hour to choose a new password.`,
      button(link, "Choose a new password"),
      `If the button doesn't work, copy this address into your browser:<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
      "The link works only once. If you didn't ask for this, you can safely ignore this email: your password stays the same.",
      `Happy building,<br>Heirloom`,
    ]),
  };
}

/** The "your usernames" mail sent by forgot-username; lists every account using the address. */
export function usernameReminderEmail(input: {
  to: string;
  usernames: string[];
  appUrl: string;
}): MailMessage {
  const { to, usernames, appUrl } = input;
  const several = usernames.length > 1;
  const loginUrl = `${appUrl}/login`;
  const forgotPasswordUrl = `${appUrl}/forgot-password`;
  const intro = several
    ? "Someone (hopefully you) asked which Heirloom accounts use this email address. These do:"
    : "Someone (hopefully you) asked which Heirloom account uses this email address. This one does:";
  return {
    to,
    subject: several ? "Your Heirloom usernames" : "Your Heirloom username",
    text: [
      "Hi,",
      "",
      intro,
      "",
      ...usernames.map((name) => `  ${name}`),
      "",
      "Usernames are case sensitive, so type them exactly as shown.",
      `Log in at ${loginUrl}`,
      `Forgot your password too? Reset it at ${forgotPasswordUrl}`,
      "",
      "If you didn't ask for this, you can safely ignore this email.",
      "",
      "Happy building,",
      "Heirloom",
      "",
    ].join("\n"),
    html: layout([
      "Hi,",
      `${escapeHtml(intro)}<br>${usernames
        .map(
          (name) =>
            `<strong style="font-family:monospace;font-size:18px">${escapeHtml(name)}</strong>`,
        )
        .join("<br>")}`,
      "Usernames are case sensitive, so type them exactly as shown.",
      button(loginUrl, "Log in to Heirloom"),
      `Forgot your password too? <a href="${escapeHtml(forgotPasswordUrl)}">Reset it here</a>.`,
      "If you didn't ask for this, you can safely ignore this email.",
      `Happy building,<br>Heirloom`,
    ]),
  };
}

/** "an***@example.com": enough for the owner to recognise an address, not to read it out whole. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, local.length - 1))}***${email.slice(at)}`;
}

/**
 * The notice sent to the old address when an account's email is changed (issue 22.5): `link`
 * carries a one-time token that puts the old address back and signs every session out.
 */
export function emailChangedEmail(input: {
  to: string;
  username: string;
  newEmail: string;
  link: string;
  appUrl: string;
}): MailMessage {
  const { to, username, newEmail, link, appUrl } = input;
  const masked = maskEmail(newEmail);
  return {
    to,
    subject: "The email address of your Heirloom account was changed",
    text: [
      `Hi ${username},`,
      "",
      `The email address of your Heirloom account "${username}" was just changed from this address to ${masked}.`,
      "",
      "If you did this, there is nothing to do.",
      "",
      "If you didn't, open this link within the next 7 days. It puts this address back and signs the account out everywhere:",
      "",
      link,
      "",
      `The link works only once. Then, if you no longer know your password, reset it at ${appUrl}/forgot-password`,
      "",
      "Happy building,",
      "Heirloom",
      appUrl,
      "",
    ].join("\n"),
    html: layout([
      `Hi ${escapeHtml(username)},`,
      `The email address of your Heirloom account <strong>${escapeHtml(username)}</strong> was just changed from this address to <strong>${escapeHtml(masked)}</strong>.`,
      "If you did this, there is nothing to do.",
      "If you didn't, use the button below within the next 7 days. It puts this address back and signs the account out everywhere.",
      button(link, "This wasn't me: restore my email"),
      `If the button doesn't work, copy this address into your browser:<br><a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`,
      `The link works only once. Then, if you no longer know your password, <a href="${escapeHtml(`${appUrl}/forgot-password`)}">reset it here</a>.`,
      `Happy building,<br>Heirloom`,
    ]),
  };
}
