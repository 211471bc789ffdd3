import type { Metadata } from "next";
import { Suspense } from "react";
import { AuthCard } from "@/components/account/auth-card";
import { ResetPasswordForm } from "@/components/account/reset-password-form";
import { Loading } from "@/components/ui/loading";

export const metadata: Metadata = { title: "Reset Password" };

// Open to anyone holding the e-mailed link, logged in or not.
export default function ResetPasswordPage() {
  return (
    <AuthCard title="Reset Password" intro="Choose a new password for your account.">
      <Suspense fallback={<Loading />}>
        <ResetPasswordForm />
      </Suspense>
    </AuthCard>
  );
}
