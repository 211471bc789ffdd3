"use client";
import Image from "next/image";
import { usePathname, useSearchParams } from "next/navigation";
import { useEffect, useMemo, useRef, useSyncExternalStore, type MouseEvent } from "react";
import { avatarUrl } from "@/lib/image-url";
import { fullName } from "@/components/people/person-name";
import type { Person } from "@/lib/schemas/person";
import type { PartnerType } from "@/lib/schemas/tree";
import type { ListItem, ListNodeItem, ListPage } from "@/lib/public-tree/list-pages";
import { PersonDetails } from "./person-details";

const PARTNER_LABELS: Record<PartnerType, string> = {
  PARTNER: "Partner",
  EX_PARTNER: "Ex-partner",
  MARRIED: "Married",
  ABDUCTION: "Alien abduction",
};

interface PublicTreeListProps {
  treeId: string;
  /** One page of the list (list-pages.ts): its entries and the people they name. */
  page: ListPage;
}

/** The entries of a page as nested nodes: each node with the entries of its children after it. */
interface PageNode {
  item: ListNodeItem;
  children: PageNode[];
}

/** Nests a page's depth-first entries again: a child follows its parent, one level deeper. */
function nestPage(items: readonly ListItem[]): { roots: PageNode[]; unplaced: string[] } {
  const roots: PageNode[] = [];
  const unplaced: string[] = [];
  const open: PageNode[] = [];
  for (const item of items) {
    if (item.kind === "unplaced") {
      unplaced.push(item.person);
      continue;
    }
    const node: PageNode = { item, children: [] };
    while (open.length > 0 && open[open.length - 1]!.item.depth >= item.depth) open.pop();
    const parent = open[open.length - 1];
    if (parent && parent.item.depth === item.depth - 1) parent.children.push(node);
    else roots.push(node);
    open.push(node);
  }
  return { roots, unplaced };
}

const noSubscription = () => () => undefined;

/**
 * False on the server and while hydrating, true after (the kept HTML is the same for every ?p=,
 * so the page's first render in the browser must match it).
 */
function useMounted(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

/**
 * A read-only view of a public tree as a nested list, one page at a time: each node's Sim with
 * their partners, and the node's children below. Choosing a Sim opens their details and puts
 * ?p={personId} in the address (without a new server render, so it does not count another view).
 * The page's HTML is the same for every reader (the production server keeps it per publication),
 * so ?p= is read once the page runs in the browser.
 */
export function PublicTreeList({ treeId, page }: PublicTreeListProps) {
  const pathname = usePathname();
  const mounted = useMounted();
  const searchParams = useSearchParams();
  const selectedId = mounted ? searchParams.get("p") : null;
  const byId = useMemo(() => new Map(page.people.map((p) => [p._id, p])), [page.people]);
  const { roots, unplaced } = useMemo(() => nestPage(page.items), [page.items]);
  const pageQuery = page.number > 1 ? `page=${page.number}` : "";
  const selected = selectedId ? (byId.get(selectedId) ?? null) : null;
  const node = selectedId
    ? (page.items.find(
        (item): item is ListNodeItem => item.kind === "node" && item.person === selectedId,
      ) ?? null)
    : null;

  function select(event: MouseEvent<HTMLAnchorElement>, personId: string | null) {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    const query = [pageQuery, personId ? `p=${encodeURIComponent(personId)}` : ""]
      .filter(Boolean)
      .join("&");
    window.history.pushState(null, "", `${pathname}${query ? `?${query}` : ""}`);
  }

  const context: NodeContext = { byId, selectedId, select, pathname, pageQuery };
  const isEmpty = page.items.length === 0;
  const pageHref = (number: number) => `${pathname}${number > 1 ? `?page=${number}` : ""}`;

  return (
    <div className="flex flex-col gap-6 lg:flex-row lg:items-start">
      <section aria-labelledby="family-tree-heading" className="min-w-0 flex-1">
        <h2 id="family-tree-heading" className="mb-3 text-xl font-semibold text-plum-900">
          Family Tree
        </h2>
        {isEmpty ? (
          <p className="text-neutral-700">Nobody has been placed in this tree yet.</p>
        ) : null}
        {roots.length > 0 ? (
          <ul className="space-y-2">
            {roots.map((root, index) => (
              <NodeItem key={index} node={root} context={context} />
            ))}
          </ul>
        ) : null}
        {unplaced.length > 0 ? (
          <>
            <h2 className="mt-8 mb-3 text-xl font-semibold text-plum-900">
              Other Sims in This Tree
            </h2>
            <ul className="flex flex-wrap gap-2">
              {unplaced.flatMap((id) => {
                const person = byId.get(id);
                return person
                  ? [
                      <li key={id}>
                        <PersonChip person={person} context={context} />
                      </li>,
                    ]
                  : [];
              })}
            </ul>
          </>
        ) : null}
        {page.count > 1 ? (
          <nav aria-label="Pages of the list" className="mt-6 flex items-center gap-4 text-sm">
            {page.number > 1 ? (
              <a href={pageHref(page.number - 1)} className="font-medium text-plum-700 underline">
                Previous page
              </a>
            ) : null}
            <span className="text-neutral-700">
              Page {page.number} of {page.count}
            </span>
            {page.number < page.count ? (
              <a href={pageHref(page.number + 1)} className="font-medium text-plum-700 underline">
                Next page
              </a>
            ) : null}
          </nav>
        ) : null}
      </section>
      {selectedId ? (
        <PersonDetails
          key={selectedId}
          treeId={treeId}
          person={selected}
          node={
            node
              ? {
                  parentType: node.parentType,
                  parents: node.parents.map((_id) => ({ _id })),
                  adoptiveParents: node.adoptiveParents.map((_id) => ({ _id })),
                }
              : null
          }
          byId={byId}
          closeHref={pageHref(page.number)}
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
  /** `page=N` past the first page, kept in a chosen Sim's address. */
  pageQuery: string;
  select: (event: MouseEvent<HTMLAnchorElement>, personId: string | null) => void;
}

function NodeItem({ node, context }: { node: PageNode; context: NodeContext }) {
  const { item } = node;
  const person = item.person ? context.byId.get(item.person) : undefined;
  const partners = item.partners
    .map((entry) => ({
      type: entry.type,
      people: entry.people.flatMap((id) => context.byId.get(id) ?? []),
    }))
    .filter((entry) => entry.people.length > 0);
  // Adoptive parents are named on the child, so that adoption is not read as birth (#15).
  const adoptive = item.adoptiveParents.flatMap((id) => {
    const parent = context.byId.get(id);
    return parent ? [fullName(parent)] : [];
  });
  const childrenElsewhere = item.children - node.children.length;
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
            {entry.people.map((partner, at) => (
              <PersonChip key={`${partner._id}:${at}`} person={partner} context={context} />
            ))}
          </span>
        ))}
        {item.hiddenPartners > 0 ? (
          <span className="text-xs text-neutral-600">
            and {item.hiddenPartners} more {item.hiddenPartners === 1 ? "partner" : "partners"}
          </span>
        ) : null}
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
      {childrenElsewhere > 0 && node.children.length === 0 ? (
        <p className="ml-4 text-xs text-neutral-600">
          {childrenElsewhere === 1 ? "1 child" : `${childrenElsewhere} children`} on the next page
        </p>
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
      href={`${context.pathname}?${context.pageQuery ? `${context.pageQuery}&` : ""}p=${encodeURIComponent(person._id)}`}
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
