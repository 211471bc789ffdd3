"use client";
import { useTranslations } from "next-intl";
import { IntentLink } from "@/components/ui/intent-link";
import { usePathname } from "next/navigation";
import { useId, type ReactNode } from "react";
import { useSession } from "@/lib/client/session";
import { TextLink } from "@/components/ui/button";
import { cx, focusRing } from "@/components/ui/class-names";
import { Loading } from "@/components/ui/loading";
import { PublicationBadge } from "@/components/account/publication-badge";
import { usePublications } from "@/components/account/publications";

function NavLink({
  href,
  exact = false,
  children,
  badge,
}: {
  href: string;
  exact?: boolean;
  children: ReactNode;
  /** Shown after the (truncated) text, e.g. a tree's publication mark. */
  badge?: ReactNode;
}) {
  const pathname = usePathname();
  const active = exact ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <IntentLink
      href={href}
      aria-current={active ? "page" : undefined}
      className={cx(
        "flex items-center gap-2 rounded-md px-3 py-2 text-sm",
        active ? "bg-plum-100 font-semibold text-plum-900" : "text-neutral-800 hover:bg-plum-50",
        focusRing,
      )}
    >
      <span className="min-w-0 flex-1 truncate">{children}</span>
      {badge}
    </IntentLink>
  );
}

function YourTrees() {
  const { ready, loggedIn, trees } = useSession();
  const t = useTranslations("SideNav");
  // Which trees are published, and which of those are in the Gallery (issue 25).
  const { list: publications } = usePublications();
  const publicationOf = (treeId: string) =>
    publications?.find((publication) => publication._id === treeId);
  if (!ready) return <Loading className="px-3 py-2 text-sm" />;
  if (!loggedIn) {
    return (
      <p className="px-3 text-sm text-neutral-700">
        {t.rich("loggedOut", {
          login: (chunks) => <TextLink href="/login">{chunks}</TextLink>,
          signup: (chunks) => <TextLink href="/signup">{chunks}</TextLink>,
        })}
      </p>
    );
  }
  return (
    <ul className="space-y-1">
      <li>
        <NavLink href="/trees/create" exact>
          <span aria-hidden="true">+ </span>
          {t("createNew")}
        </NavLink>
      </li>
      {trees === null ? (
        <li>
          <Loading label={t("loadingTrees")} className="px-3 py-2 text-sm" />
        </li>
      ) : (
        trees.map((tree) => (
          <li key={tree._id}>
            <NavLink
              href={`/trees/${tree._id}`}
              badge={<PublicationBadge publication={publicationOf(tree._id)} />}
            >
              {tree.title.trim() || t("untitledTree")}
            </NavLink>
          </li>
        ))
      )}
    </ul>
  );
}

/** The main navigation: Home, the Gallery, Guides and the user's trees. */
export function SideNav() {
  const treesHeadingId = useId();
  const t = useTranslations("SideNav");
  return (
    <nav aria-label={t("label")} className="space-y-6 p-4">
      <ul className="space-y-1">
        <li>
          <NavLink href="/" exact>
            {t("home")}
          </NavLink>
        </li>
        <li>
          <NavLink href="/gallery">{t("gallery")}</NavLink>
        </li>
        <li>
          <NavLink href="/guides">{t("guides")}</NavLink>
        </li>
      </ul>
      <section aria-labelledby={treesHeadingId} className="space-y-2">
        <h2
          id={treesHeadingId}
          className="px-3 text-xs font-semibold tracking-wide text-plum-700 uppercase"
        >
          {t("yourTrees")}
        </h2>
        <YourTrees />
      </section>
      <ul className="border-t border-plum-100 pt-4">
        <li>
          <NavLink href="/version">{t("version")}</NavLink>
        </li>
      </ul>
    </nav>
  );
}
