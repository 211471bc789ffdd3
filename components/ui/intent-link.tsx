"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps } from "react";

/**
 * Heirloom's link: it prefetches its page when the user shows intent (a pointer over it, focus,
 * a touch), not whenever it is in view. Next's default prefetches every link in view, which costs
 * a server render per link on every page view (the shell alone has three, plus one per tree) and
 * competes with the page's own data while it loads (ADR 011). ESLint keeps `next/link` to here.
 */
export function IntentLink({
  href,
  onMouseEnter,
  onFocus,
  onTouchStart,
  ...props
}: Omit<ComponentProps<typeof Link>, "prefetch">) {
  const router = useRouter();
  // An address object is rare here; it navigates as usual, without the prefetch.
  const prefetch = () => {
    if (typeof href === "string") router.prefetch(href);
  };
  return (
    <Link
      href={href}
      prefetch={false}
      onMouseEnter={(event) => {
        prefetch();
        onMouseEnter?.(event);
      }}
      onFocus={(event) => {
        prefetch();
        onFocus?.(event);
      }}
      onTouchStart={(event) => {
        prefetch();
        onTouchStart?.(event);
      }}
      {...props}
    />
  );
}
