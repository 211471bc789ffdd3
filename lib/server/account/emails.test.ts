import { describe, expect, it } from "vitest";
import { emailChangedEmail, maskEmail, passwordResetEmail, usernameReminderEmail } from "./emails";

const appUrl = "https://heirloom.example";

describe("passwordResetEmail", () => {
  const link = `${appUrl}/reset-password?t=tok&u=Anna`;
  const mail = passwordResetEmail({ to: "anna@example.com", username: "Anna", link, appUrl });

  it("addresses the account's email with a clear subject", () => {
    expect(mail.to).toBe("anna@example.com");
    expect(mail.subject).toBe("Reset your Heirloom password");
  });

  it("carries the link in the text and, escaped, in the HTML", () => {
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.html).toContain(`href="${link.replace("&", "&amp;")}"`);
    expect(mail.html).not.toContain("t=tok&u");
  });

  it("says how long the link works and what to do if it was not asked for", () => {
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain("within the next hour");
      expect(body).toContain("works only once");
      expect(body).toContain("ignore this email");
    }
  });
});

describe("usernameReminderEmail", () => {
  it("lists every username, in the text and the HTML", () => {
    const mail = usernameReminderEmail({
      to: "family@example.com",
      usernames: ["Goth_Mortimer", "goth_bella"],
      appUrl,
    });
    expect(mail.subject).toBe("Your Heirloom usernames");
    for (const name of ["Goth_Mortimer", "goth_bella"]) {
      expect(mail.text).toContain(`  ${name}\n`);
      expect(mail.html).toContain(`>${name}</strong>`);
    }
    expect(mail.text).toContain(`${appUrl}/login`);
    expect(mail.text).toContain("case sensitive");
  });

  it("uses the singular for one account", () => {
    const mail = usernameReminderEmail({ to: "a@example.com", usernames: ["solo"], appUrl });
    expect(mail.subject).toBe("Your Heirloom username");
    expect(mail.text).toContain("This one does:");
  });

  it("escapes HTML in what it shows", () => {
    const mail = usernameReminderEmail({ to: "a@example.com", usernames: ["<b>x</b>"], appUrl });
    expect(mail.html).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>x</b>");
  });
});

describe("emailChangedEmail", () => {
  const link = `${appUrl}/restore-email?t=tok&u=Anna`;
  const mail = emailChangedEmail({
    to: "anna@example.com",
    username: "Anna",
    newEmail: "thief@evil.example",
    link,
    appUrl,
  });

  it("goes to the old address and names the new one only masked", () => {
    expect(mail.to).toBe("anna@example.com");
    expect(mail.subject).toBe("The email address of your Heirloom account was changed");
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain("th***@evil.example");
      expect(body).not.toContain("thief@");
    }
  });

  it("carries the restore link and says what it does", () => {
    expect(mail.text).toContain(`\n${link}\n`);
    expect(mail.html).toContain(`href="${link.replace("&", "&amp;")}"`);
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain("signs the account out everywhere");
      expect(body).toContain("7 days");
      expect(body).toContain("works only once");
    }
  });

  it.each([
    ["anna@example.com", "an***@example.com"],
    ["a@example.com", "***@example.com"],
    ["ab@example.com", "a***@example.com"],
    ["broken", "***"],
  ])("masks %s as %s", (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });
});
