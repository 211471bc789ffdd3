"use client";
import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { notify } from "@/lib/client/toast";
import { useSession } from "@/lib/client/session";
import {
  DropdownButton,
  DropdownLink,
  DropdownMenu,
  DropdownText,
} from "@/components/ui/dropdown-menu";

/** The header's "Account" dropdown. */
export function AccountMenu() {
  const session = useSession();
  const { loggedIn, username } = session;
  const router = useRouter();
  const t = useTranslations("AccountMenu");

  function onLogout() {
    router.push("/");
    session.logout();
    // The farewell uses the session's {name} (SPEC.md).
    notify.success(t("farewell", { name: username ?? t("friend") }));
  }

  return (
    <DropdownMenu label={t("account")} buttonClassName="text-white hover:bg-plum-600">
      {loggedIn ? (
        <>
          {username && (
            <DropdownText>
              {t.rich("loggedInAs", {
                username,
                strong: (chunks) => (
                  <strong className="font-semibold text-plum-900">{chunks}</strong>
                ),
              })}
            </DropdownText>
          )}
          <DropdownLink href="/account">{t("settings")}</DropdownLink>
          <DropdownButton onClick={onLogout}>{t("logout")}</DropdownButton>
        </>
      ) : (
        <>
          <DropdownLink href="/login">{t("login")}</DropdownLink>
          <DropdownLink href="/signup">{t("createAccount")}</DropdownLink>
        </>
      )}
    </DropdownMenu>
  );
}
