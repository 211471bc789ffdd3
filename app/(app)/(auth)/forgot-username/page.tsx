import type { Metadata } from "next";
import { AuthCard } from "@/components/account/auth-card";
import { ForgotUsernameForm } from "@/components/account/forgot-username-form";
import { TextLink } from "@/components/ui/button";
import { AnonymousOnly } from "@/components/shell/session-guards";

export const metadata: Metadata = { title: "Forgot Username" };

export default function ForgotUsernamePage() {
  return (
    <AnonymousOnly>
      <AuthCard
        title="Forgot Username"
        intro={
          <>
            <p>Enter the e-mail address of your account and we will send your username to it.</p>
            <p className="mt-2">
              <strong className="text-plum-900">Usernames are case sensitive:</strong> when you log
              in, type it exactly as it appears in the e-mail.
            </p>
          </>
        }
        footer={
          <p>
            <TextLink href="/login">Back to login</TextLink>
            <span aria-hidden="true" className="mx-2">
              ·
            </span>
            <TextLink href="/forgot-password">Forgot your password?</TextLink>
          </p>
        }
      >
        <ForgotUsernameForm />
      </AuthCard>
    </AnonymousOnly>
  );
}
