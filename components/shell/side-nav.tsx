"use client";
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
        active ? "bg-plum-100 text-plum-900 font-semibold" : "hover:bg-plum-50 text-neutral-800",
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
  // Which trees are published, and which of those are in the Gallery (issue 25).
  const { list: publications } = usePublications();
  const publicationOf = (treeId: string) =>
    publications?.find((publication) => publication._id === treeId);
  if (!ready) return <Loading className="px-3 py-2 text-sm" />;
  if (!loggedIn) {
    return (
      <p className="px-3 text-sm text-neutral-700">
        <TextLink href="/login">Log in</TextLink> or{" "}
        <TextLink href="/signup">create an account</TextLink> to start building your family trees.
      </p>
    );
  }
  return (
    <ul className="space-y-1">
      <li>
        <NavLink href="/trees/create" exact>
          <span aria-hidden="true">+ </span>Create New
        </NavLink>
      </li>
      {trees === null ? (
        <li>
          <Loading label="Loading trees" className="px-3 py-2 text-sm" />
        </li>
      ) : (
        trees.map((tree) => (
          <li key={tree._id}>
            <NavLink
              href={`/trees/${tree._id}`}
              badge={<PublicationBadge publication={publicationOf(tree._id)} />}
            >
              {tree.title.trim() || "Untitled Tree"}
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
  return (
    <nav aria-label="Main" className="space-y-6 p-4">
      <ul className="space-y-1">
        <li>
          <NavLink href="/" exact>
            Home
          </NavLink>
        </li>
        <li>
          <NavLink href="/gallery">Gallery</NavLink>
        </li>
        <li>
          <NavLink href="/guides">Guides</NavLink>
        </li>
      </ul>
      <section aria-labelledby={treesHeadingId} className="space-y-2">
        <h2
          id={treesHeadingId}
          className="text-plum-700 px-3 text-xs font-semibold tracking-wide uppercase"
        >
          Your Trees
        </h2>
        <YourTrees />
      </section>
      <ul className="border-plum-100 border-t pt-4">
        <li>
          <NavLink href="/version">Version</NavLink>
        </li>
      </ul>
    </nav>
  );
}
