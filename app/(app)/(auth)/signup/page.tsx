import type { Metadata } from "next";
import { AuthCard } from "@/components/account/auth-card";
import { SignupForm } from "@/components/account/signup-form";
import { TextLink } from "@/components/ui/button";
import { AnonymousOnly } from "@/components/shell/session-guards";

export const metadata: Metadata = { title: "Create Account" };

export default function SignupPage() {
  return (
    <AnonymousOnly>
      <AuthCard
        title="Create Account"
        intro="Start building family trees for your Sims legacies."
        footer={
          <p>
            Already have an account? <TextLink href="/login">Log in</TextLink>
          </p>
        }
      >
        <SignupForm />
      </AuthCard>
    </AnonymousOnly>
  );
}
