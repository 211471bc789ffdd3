"use client";
import Image from "next/image";
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { avatarUrl } from "@/lib/image-url";
import { RichTextContent } from "@/components/rich-text/rich-text-content";
import { isNetworkFailure } from "@/lib/client/api";
import { loadPersonDetails, needsDetails } from "@/lib/client/canvas-people";
import { useOnline } from "@/lib/client/online";
import { PARENT_TYPE_BADGES, simName } from "@/components/tree-canvas/labels";
import { Button, LinkButton } from "@/components/ui/button";
import type { Person } from "@/lib/schemas/person";
import type { PersonRef } from "@/lib/schemas/tree";
import { findPersonNode, type TreeLayout } from "@/lib/tree/layout";

export interface PersonDetailsPanelProps {
  person: Person;
  treeId: string;
  layout: TreeLayout;
  people: ReadonlyMap<string, Person>;
  /** Hides the Edit link. */
  readOnly: boolean;
  /** Distance from the top of the editor: 65 under the toolbar, 0 in the public view. */
  top: number;
  onClose: () => void;
  onSelectPerson: (personId: string) => void;
  /** Shown under the name: the generation, heir mark and relation finder. */
  extra?: ReactNode;
}

function Section({
  title,
  badge,
  children,
}: {
  title: string;
  badge?: string | null;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="space-y-1">
      <h3 id={id} className="flex items-center gap-2 text-sm font-semibold text-plum-900">
        {title}
        {badge && (
          <span className="rounded-full bg-plum-100 px-2 py-0.5 text-xs font-medium text-plum-700">
            {badge}
          </span>
        )}
      </h3>
      {children}
    </section>
  );
}

function Tags({ values }: { values: string[] }) {
  return (
    <ul className="flex flex-wrap gap-1.5">
      {values.map((value) => (
        <li
          key={value}
          className="rounded-full border border-plum-100 bg-plum-50 px-2.5 py-0.5 text-sm"
        >
          {value}
        </li>
      ))}
    </ul>
  );
}

function PeopleLinks({
  refs,
  people,
  onSelectPerson,
}: {
  refs: PersonRef[];
  people: ReadonlyMap<string, Person>;
  onSelectPerson: (personId: string) => void;
}) {
  return (
    <ul className="space-y-0.5">
      {refs.map((ref) => {
        const parent = people.get(ref._id);
        return (
          <li key={ref._id}>
            {parent ? (
              <button
                type="button"
                onClick={() => onSelectPerson(ref._id)}
                className="text-sm font-medium text-plum-700 underline underline-offset-2 hover:text-plum-900"
              >
                {simName(parent)}
              </button>
            ) : (
              <span className="text-sm text-neutral-600">Unknown Sim</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

type Details = Pick<Person, "bio" | "traits" | "aspirations" | "lifeStates" | "custom">;

/** Said instead of "Loading details…" while the details cannot come (issue 32). */
export const DETAILS_OFFLINE = "You're offline: the details will load when the connection returns.";

/**
 * The Sim's bio, lists and custom rows. The editor's people come without them (ADR 032): they are
 * fetched when the panel opens; null until they arrive, "offline" while the network is gone (they
 * are fetched when it returns). The public view's people have them.
 */
function useDetails(person: Person): Details | "offline" | null {
  const lean = needsDetails(person);
  const online = useOnline();
  const [loaded, setLoaded] = useState<{ of: Person; details: Details } | null>(null);
  const [unreachable, setUnreachable] = useState<Person | null>(null);
  useEffect(() => {
    if (!lean || !online) return;
    let current = true;
    loadPersonDetails(person).then(
      (details) => {
        if (current) setLoaded({ of: person, details });
      },
      (error: unknown) => {
        if (current && isNetworkFailure(error)) setUnreachable(person);
      },
    );
    return () => {
      current = false;
    };
  }, [lean, person, online]);
  if (!lean) return person;
  if (loaded?.of === person) return loaded.details;
  return !online || unreachable === person ? "offline" : null;
}

/** Everything about one Sim: SPEC.md section 2, "Person details panel". */
export function PersonDetailsPanel({
  person,
  treeId,
  layout,
  people,
  readOnly,
  top,
  onClose,
  onSelectPerson,
  extra,
}: PersonDetailsPanelProps) {
  const headingId = useId();
  const linkDetailsId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [showLinkDetails, setShowLinkDetails] = useState(false);
  const name = simName(person);
  const fetched = useDetails(person);
  const details = fetched === "offline" ? null : fetched;

  // A person's parents are recorded on the node where they are the node's person.
  const home = useMemo(
    () => findPersonNode(layout, person._id, { asPartner: false })?.node,
    [layout, person._id],
  );
  const parents = home?.parents ?? [];
  const adoptiveParents = home?.adoptiveParents ?? [];
  const badge = home ? PARENT_TYPE_BADGES[home.parentType] : null;

  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [person._id]);

  return (
    <aside
      aria-labelledby={headingId}
      style={{ top }}
      className="absolute right-0 bottom-0 z-20 w-full max-w-sm overflow-y-auto border-l border-plum-100 bg-white shadow-xl"
    >
      <div className="space-y-5 p-5">
        <div className="flex items-center justify-end gap-2">
          {!readOnly && (
            <LinkButton
              variant="secondary"
              size="sm"
              href={`/trees/${encodeURIComponent(treeId)}/people/${encodeURIComponent(person._id)}`}
            >
              Edit
            </LinkButton>
          )}
          <Button variant="secondary" size="sm" onClick={onClose}>
            Close
          </Button>
        </div>
        <div className="flex flex-col items-center gap-3 text-center">
          <Image
            src={avatarUrl(person.avatar)}
            alt={`Avatar of ${name}`}
            width={160}
            height={160}
            unoptimized
            className="size-40 rounded-full bg-plum-100 object-cover"
          />
          <h2
            id={headingId}
            ref={heading}
            tabIndex={-1}
            className="text-xl font-bold break-words text-plum-900 outline-none"
          >
            {name}
          </h2>
          {adoptiveParents.length > 0 && (
            <p className="text-plum-800 rounded-full bg-plum-100 px-2.5 py-0.5 text-xs font-medium">
              Adopted
              <span className="sr-only">: see Adoptive Parents</span>
            </p>
          )}
        </div>
        {extra}
        {details ? (
          <RichTextContent html={details.bio} className="text-sm text-neutral-800" />
        ) : (
          <p role="status" className="text-sm text-neutral-600">
            {fetched === "offline" ? DETAILS_OFFLINE : "Loading details…"}
          </p>
        )}

        {(parents.length > 0 || badge) && (
          <Section title="Biological Parents" badge={badge}>
            {parents.length > 0 ? (
              <PeopleLinks refs={parents} people={people} onSelectPerson={onSelectPerson} />
            ) : (
              <p className="text-sm text-neutral-600">Unknown</p>
            )}
          </Section>
        )}
        {adoptiveParents.length > 0 && (
          <Section title="Adoptive Parents">
            <PeopleLinks refs={adoptiveParents} people={people} onSelectPerson={onSelectPerson} />
          </Section>
        )}
        {details && details.traits.length > 0 && (
          <Section title="Traits">
            <Tags values={details.traits} />
          </Section>
        )}
        {details && details.aspirations.length > 0 && (
          <Section title="Aspirations">
            <Tags values={details.aspirations} />
          </Section>
        )}
        {details && details.lifeStates.length > 0 && (
          <Section title="Life States">
            <Tags values={details.lifeStates} />
          </Section>
        )}
        {details && details.custom.length > 0 && (
          <Section title="More">
            <table className="w-full text-left text-sm">
              <thead className="sr-only">
                <tr>
                  <th scope="col">Title</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {details.custom.map((row, index) => (
                  <tr key={index} className="border-b border-plum-100 last:border-b-0">
                    <th scope="row" className="py-1.5 pr-3 align-top font-medium text-neutral-700">
                      {row.title}
                    </th>
                    <td className="py-1.5 break-words">{row.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Section>
        )}

        <div className="space-y-2">
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={showLinkDetails}
            aria-controls={linkDetailsId}
            onClick={() => setShowLinkDetails((shown) => !shown)}
          >
            {showLinkDetails ? "Hide Link Details" : "Show Link Details"}
          </Button>
          <dl id={linkDetailsId} hidden={!showLinkDetails} className="space-y-1 text-sm">
            <div>
              <dt className="font-medium text-neutral-700">Tree ID</dt>
              <dd className="font-mono break-all select-all">{treeId}</dd>
            </div>
            <div>
              <dt className="font-medium text-neutral-700">Person ID</dt>
              <dd className="font-mono break-all select-all">{person._id}</dd>
            </div>
          </dl>
        </div>
      </div>
    </aside>
  );
}
