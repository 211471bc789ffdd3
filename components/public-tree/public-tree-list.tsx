"use client";
import Image from "next/image";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, type MouseEvent } from "react";
import { avatarUrl } from "@/lib/image-url";
import { fullName } from "@/components/people/person-name";
import type { Person } from "@/lib/schemas/person";
import type { PartnerType, TreeNode } from "@/lib/schemas/tree";
import { PersonDetails } from "./person-details";

const PARTNER_LABELS: Record<PartnerType, string> = {
  PARTNER: "Partner",
  EX_PARTNER: "Ex-partner",
  MARRIED: "Married",
  ABDUCTION: "Alien abduction",
};

interface PublicTreeListProps {
  treeId: string;
  data: TreeNode;
  people: Person[];
}

/**
 * A read-only view of a public tree as a nested list: each node's Sim with their partners, and
 * the node's children below. Choosing a Sim opens their details and puts ?p={personId} in the
 * address (without a new server render, so it does not count another view); the address works
 * without JavaScript too.
 */
export function PublicTreeList({ treeId, data, people }: PublicTreeListProps) {
  const pathname = usePathname();
  const selectedId = useSearchParams().get("p");
  const byId = useMemo(() => new Map(people.map((p) => [p._id, p])), [people]);
  const placed = useMemo(() => placedIds(data), [data]);
  const unplaced = people.filter((person) => !placed.has(person._id));
  const selected = selectedId ? (byId.get(selectedId) ?? null) : null;
  const node = selectedId ? findNodeOf(data, selectedId) : null;

  function select(event: MouseEvent<HTMLAnchorElement>, personId: string | null) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    const query = personId ? `?p=${encodeURIComponent(personId)}` : "";
    window.history.pushState(null, "", `${pathname}${query}`);
  }

  const context: NodeContext = { byId, selectedId, select, pathname };
  const isEmpty = !data.person && data.partners.length === 0 && data.children.length === 0;

  return (
    <div className="flex flex-col gap-6 lg:flex-row lg:items-start">
      <section aria-labelledby="family-tree-heading" className="min-w-0 flex-1">
        <h2 id="family-tree-heading" className="mb-3 text-xl font-semibold text-plum-900">
          Family Tree
        </h2>
        {isEmpty ? (
          <p className="text-neutral-700">Nobody has been placed in this tree yet.</p>
        ) : (
          <ul className="space-y-2">
            <NodeItem node={data} context={context} />
          </ul>
        )}
        {unplaced.length > 0 ? (
          <>
            <h2 className="mt-8 mb-3 text-xl font-semibold text-plum-900">
              Other Sims in This Tree
            </h2>
            <ul className="flex flex-wrap gap-2">
              {unplaced.map((person) => (
                <li key={person._id}>
                  <PersonChip person={person} context={context} />
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </section>
      {selectedId ? (
        <PersonDetails
          key={selectedId}
          treeId={treeId}
          person={selected}
          node={node}
          byId={byId}
          closeHref={pathname}
          onClose={(event) => select(event, null)}
        />
      ) : null}
    </div>
  );
}

interface NodeContext {
  byId: Map<string, Person>;
  selectedId: string | null;
  pathname: string;
  select: (event: MouseEvent<HTMLAnchorElement>, personId: string | null) => void;
}

function NodeItem({ node, context }: { node: TreeNode; context: NodeContext }) {
  const person = node.person ? context.byId.get(node.person._id) : undefined;
  const partners = node.partners
    .map((entry) => ({
      type: entry.type,
      people: entry.people.flatMap((ref) => context.byId.get(ref._id) ?? []),
    }))
    .filter((entry) => entry.people.length > 0);
  // Adoptive parents are named on the child, so that adoption is not read as birth (#15).
  const adoptive = node.adoptiveParents.flatMap((ref) => {
    const parent = context.byId.get(ref._id);
    return parent ? [fullName(parent)] : [];
  });
  return (
    <li className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 rounded-lg border border-plum-100 bg-white p-2 shadow-sm">
        {person ? (
          <PersonChip person={person} context={context} />
        ) : (
          <span className="px-2 text-sm text-neutral-500 italic">Unknown Sim</span>
        )}
        {adoptive.length > 0 ? (
          <span className="border-plum-400 text-plum-800 rounded-full border border-dashed px-2 py-0.5 text-xs font-medium">
            Adopted by {adoptive.join(" and ")}
          </span>
        ) : null}
        {partners.map((entry, index) => (
          <span key={index} className="flex flex-wrap items-center gap-2">
            <span className="text-xs font-medium tracking-wide text-plum-700 uppercase">
              {PARTNER_LABELS[entry.type]}
            </span>
            {entry.people.map((partner) => (
              <PersonChip key={partner._id} person={partner} context={context} />
            ))}
          </span>
        ))}
      </div>
      {node.children.length > 0 ? (
        <ul
          aria-label={`Children of ${person ? fullName(person) : "this family"}`}
          className="ml-4 space-y-2 border-l-2 border-plum-200 pl-4"
        >
          {node.children.map((child, index) => (
            <NodeItem key={index} node={child} context={context} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function PersonChip({ person, context }: { person: Person; context: NodeContext }) {
  const ref = useRef<HTMLAnchorElement>(null);
  const isSelected = context.selectedId === person._id;

  // A shared link (?p=…) scrolls its Sim into view.
  useEffect(() => {
    if (isSelected) ref.current?.scrollIntoView({ block: "nearest" });
  }, [isSelected]);

  return (
    <a
      ref={ref}
      href={`${context.pathname}?p=${encodeURIComponent(person._id)}`}
      onClick={(event) => context.select(event, person._id)}
      aria-current={isSelected ? "true" : undefined}
      className={`inline-flex items-center gap-2 rounded-full py-1 pr-3 pl-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-plum-500 ${
        isSelected ? "bg-plum-600 text-white" : "bg-plum-50 text-plum-900 hover:bg-plum-100"
      }`}
    >
      <Image
        src={avatarUrl(person.avatar, "100x100")}
        alt=""
        width={40}
        height={40}
        unoptimized
        className="size-10 rounded-full bg-plum-100 object-cover"
      />
      <span className="break-all">{fullName(person)}</span>
    </a>
  );
}

/** Every person placed in the tree as a node's person or partner. */
function placedIds(root: TreeNode): Set<string> {
  const ids = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.person) ids.add(node.person._id);
    for (const entry of node.partners) for (const ref of entry.people) ids.add(ref._id);
    stack.push(...node.children);
  }
  return ids;
}

/** The node whose main person is `personId` (where their parents are recorded). */
function findNodeOf(root: TreeNode, personId: string): TreeNode | null {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.person?._id === personId) return node;
    stack.push(...node.children);
  }
  return null;
}
