import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { AccountSettings } from "@/components/account/account-settings";
import { RequireLogin } from "@/components/shell/session-guards";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("AccountSettings");
  return { title: t("title") };
}

export default function AccountPage() {
  return (
    <RequireLogin>
      <AccountSettings />
    </RequireLogin>
  );
}
