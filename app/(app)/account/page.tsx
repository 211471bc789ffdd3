import type { Metadata } from "next";
import { AccountSettings } from "@/components/account/account-settings";
import { RequireLogin } from "@/components/shell/session-guards";

export const metadata: Metadata = { title: "Account Settings" };

export default function AccountPage() {
  return (
    <RequireLogin>
      <AccountSettings />
    </RequireLogin>
  );
}
