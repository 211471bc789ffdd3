import type { Metadata } from "next";
import { Suspense } from "react";
import { AuthCard } from "@/components/account/auth-card";
import { RestoreEmailForm } from "@/components/account/restore-email-form";
import { Loading } from "@/components/ui/loading";

export const metadata: Metadata = { title: "Restore Email" };

// Open to anyone holding the link mailed to the old address, logged in or not (issue 22.5).
export default function RestoreEmailPage() {
  return (
    <AuthCard title="Restore Email" intro="Undo a change of your account's email address.">
      <Suspense fallback={<Loading />}>
        <RestoreEmailForm />
      </Suspense>
    </AuthCard>
  );
}
