import type { Metadata } from "next";
import { AuthCard } from "@/components/account/auth-card";
import { LoginForm } from "@/components/account/login-form";
import { TextLink } from "@/components/ui/button";
import { AnonymousOnly } from "@/components/shell/session-guards";

export const metadata: Metadata = { title: "Login" };

export default function LoginPage() {
  return (
    <AnonymousOnly>
      <AuthCard
        title="Login"
        intro="Welcome back! Log in to keep working on your trees."
        footer={
          <>
            <p>
              New to Heirloom? <TextLink href="/signup">Create an account</TextLink>
            </p>
            <p>
              <TextLink href="/forgot-password">Forgot your password?</TextLink>
              <span aria-hidden="true" className="mx-2">
                ·
              </span>
              <TextLink href="/forgot-username">Forgot your username?</TextLink>
            </p>
          </>
        }
      >
        <LoginForm />
      </AuthCard>
    </AnonymousOnly>
  );
}
