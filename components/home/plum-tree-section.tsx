"use client";
import { LinkButton, TextLink } from "@/components/ui/button";
import { useSession } from "@/lib/client/session";

/**
 * "Coming from The Plum Tree?": the backup ZIP its players downloaded before it closed imports
 * here with its images. Logged-out visitors are asked to sign up or log in first.
 */
export function PlumTreeSection() {
  const { ready, loggedIn } = useSession();
  return (
    <section
      aria-labelledby="plum-tree"
      className="rounded-lg border border-plum-200 bg-white p-6 shadow-sm"
    >
      <h2 id="plum-tree" className="text-xl font-semibold text-plum-900">
        Coming from The Plum Tree?
      </h2>
      <div className="mt-2 space-y-2 text-neutral-800">
        <p>
          The Plum Tree closed in 2023, but the backup ZIP you downloaded before it closed still
          holds your legacy. Import it here and it becomes a tree of yours again: every Sim, their
          partners, parents and children, their bios, and the portraits and cover image inside the
          ZIP.
        </p>
        <p className="text-neutral-700">
          Backups from PruneTree and GEDCOM files from other genealogy programs import the same way.
        </p>
        <p className="text-neutral-700" data-home-sims4="">
          Playing The Sims 4? Upload your save (<code>Slot_0000000N.save</code>) or a Gallery
          household (<code>.trayitem</code>), pick the household, and its whole family comes in,
          culled ancestors included. <TextLink href="/guides/import-from-the-sims-4">How it works</TextLink>
        </p>
      </div>
      <div className="mt-4 flex min-h-10 flex-wrap items-center gap-3">
        <LinkButton href="/trees/import">Import your backup</LinkButton>
        {ready && !loggedIn && (
          <p className="text-sm text-neutral-700">
            You need an account first: <TextLink href="/signup">create one</TextLink> or{" "}
            <TextLink href="/login">log in</TextLink>.
          </p>
        )}
      </div>
    </section>
  );
}
