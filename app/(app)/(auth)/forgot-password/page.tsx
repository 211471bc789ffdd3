import type { Metadata } from "next";
import { AuthCard } from "@/components/account/auth-card";
import { ForgotPasswordForm } from "@/components/account/forgot-password-form";
import { TextLink } from "@/components/ui/button";
import { AnonymousOnly } from "@/components/shell/session-guards";

export const metadata: Metadata = { title: "Forgot Password" };

export default function ForgotPasswordPage() {
  return (
    <AnonymousOnly>
      <AuthCard
        title="Forgot Password"
        intro="Enter your username and we will e-mail you a link to choose a new password. The link works once and expires after an hour."
        footer={
          <p>
            Remembered it? <TextLink href="/login">Log in</TextLink>
            <span aria-hidden="true" className="mx-2">
              ·
            </span>
            <TextLink href="/forgot-username">Forgot your username?</TextLink>
          </p>
        }
      >
        <ForgotPasswordForm />
      </AuthCard>
    </AnonymousOnly>
  );
}
