"use client";
import { useRouter } from "next/navigation";
import { notify } from "@/lib/client/toast";
import { useSession } from "@/lib/client/session";
import {
  DropdownButton,
  DropdownLink,
  DropdownMenu,
  DropdownText,
} from "@/components/ui/dropdown-menu";

/** The farewell shown on logout. */
export function farewellMessage(name: string | null): string {
  return `Goodbye ${name ?? "friend"}, see you soon!`;
}

/** The header's "Account" dropdown. */
export function AccountMenu() {
  const session = useSession();
  const { loggedIn, username } = session;
  const router = useRouter();

  function onLogout() {
    router.push("/");
    session.logout();
    notify.success(farewellMessage(username));
  }

  return (
    <DropdownMenu label="Account" buttonClassName="text-white hover:bg-plum-600">
      {loggedIn ? (
        <>
          {username && (
            <DropdownText>
              Logged in as <strong className="text-plum-900 font-semibold">{username}</strong>
            </DropdownText>
          )}
          <DropdownLink href="/account">Account Settings</DropdownLink>
          <DropdownButton onClick={onLogout}>Logout</DropdownButton>
        </>
      ) : (
        <>
          <DropdownLink href="/login">Login</DropdownLink>
          <DropdownLink href="/signup">Create Account</DropdownLink>
        </>
      )}
    </DropdownMenu>
  );
}
