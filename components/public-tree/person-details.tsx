"use client";
import Image from "next/image";
import { useEffect, useId, useRef, useState, type MouseEvent } from "react";
import { avatarUrl } from "@/lib/image-url";
import { fullName } from "@/components/people/person-name";
import { RichTextContent } from "@/components/rich-text/rich-text-content";
import type { Person } from "@/lib/schemas/person";
import type { ParentType, PersonRef, TreeNode } from "@/lib/schemas/tree";

const PARENT_TYPE_LABELS: Record<ParentType, string | null> = {
  NONE: null,
  ABDUCTION: "Alien Abduction",
  CLONE: "Clone",
};

interface PersonDetailsProps {
  treeId: string;
  /** null when ?p= names nobody in this public copy. */
  person: Person | null;
  /** The node where the person is the main person, which records their parents. */
  node: Pick<TreeNode, "parentType" | "parents" | "adoptiveParents"> | null;
  byId: Map<string, Person>;
  closeHref: string;
  onClose: (event: MouseEvent<HTMLAnchorElement>) => void;
}

/** The read-only person details panel of the public tree (SPEC.md section 2). */
export function PersonDetails({
  treeId,
  person,
  node,
  byId,
  closeHref,
  onClose,
}: PersonDetailsProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [showLinkDetails, setShowLinkDetails] = useState(false);

  // The panel is keyed by person: each opening moves focus to its heading.
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
  }, []);

  const names = (refs: PersonRef[]) =>
    refs.flatMap((ref) => {
      const parent = byId.get(ref._id);
      return parent ? [fullName(parent)] : [];
    });

  return (
    <aside
      aria-labelledby={headingId}
      data-person-id={person?._id}
      className="w-full shrink-0 rounded-lg border border-plum-100 bg-white p-5 shadow-sm lg:sticky lg:top-4 lg:w-96"
    >
      {person ? (
        <>
          <div className="flex items-center gap-4">
            <Image
              src={avatarUrl(person.avatar, "200x200")}
              alt=""
              width={96}
              height={96}
              unoptimized
              className="size-24 rounded-full bg-plum-100 object-cover"
            />
            <h2
              id={headingId}
              ref={headingRef}
              tabIndex={-1}
              className="text-xl font-bold break-words text-plum-900 outline-none"
            >
              {fullName(person)}
            </h2>
          </div>
          {person.bio ? (
            <RichTextContent html={person.bio} className="mt-4 text-neutral-800" />
          ) : null}
          <dl className="mt-4 space-y-3 text-sm">
            {node && node.parents.length > 0 ? (
              <Entry title="Biological Parents">
                {names(node.parents).join(", ")}
                {PARENT_TYPE_LABELS[node.parentType] ? (
                  <span className="ml-2 rounded bg-plum-100 px-1.5 py-0.5 text-xs text-plum-900">
                    {PARENT_TYPE_LABELS[node.parentType]}
                  </span>
                ) : null}
              </Entry>
            ) : null}
            {node && node.adoptiveParents.length > 0 ? (
              <Entry title="Adoptive Parents">{names(node.adoptiveParents).join(", ")}</Entry>
            ) : null}
            <ListEntry title="Traits" values={person.traits} />
            <ListEntry title="Aspirations" values={person.aspirations} />
            <ListEntry title="Life States" values={person.lifeStates} />
          </dl>
          {person.custom.length > 0 ? (
            <table className="mt-4 w-full text-left text-sm">
              <caption className="mb-1 text-left font-semibold text-plum-900">More</caption>
              <tbody>
                {person.custom.map((row, index) => (
                  <tr key={index} className="border-t border-plum-100">
                    <th scope="row" className="py-1 pr-3 align-top font-medium break-words">
                      {row.title}
                    </th>
                    <td className="py-1 break-words whitespace-pre-line">{row.value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {person.links.length > 0 ? (
            <div className="mt-4 text-sm">
              <h3 className="font-semibold text-plum-900">Also in</h3>
              <ul className="mt-1 space-y-1">
                {person.links.map((link, index) => (
                  <li key={index}>
                    <a
                      href={`/public/${encodeURIComponent(link.treeId)}?p=${encodeURIComponent(link.personId)}`}
                      className="font-medium break-words text-plum-700 underline underline-offset-2 hover:text-plum-900"
                    >
                      {link.title || "Another tree"}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="mt-4 text-sm">
            <button
              type="button"
              aria-expanded={showLinkDetails}
              onClick={() => setShowLinkDetails((shown) => !shown)}
              className="font-medium text-plum-700 underline underline-offset-2 hover:text-plum-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-plum-500"
            >
              {showLinkDetails ? "Hide Link Details" : "Show Link Details"}
            </button>
            {showLinkDetails ? (
              <p className="mt-1 break-all text-neutral-700">
                Tree ID: <code>{treeId}</code>
                <br />
                Person ID: <code>{person._id}</code>
              </p>
            ) : null}
          </div>
        </>
      ) : (
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="text-neutral-800 outline-none">
          That Sim is not in the public copy of this tree.
        </h2>
      )}
      <a
        href={closeHref}
        onClick={onClose}
        className="mt-5 inline-flex rounded-md border border-plum-200 px-3 py-1.5 text-sm font-medium text-plum-700 hover:bg-plum-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-plum-500"
      >
        Close
      </a>
    </aside>
  );
}

function Entry({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="font-semibold text-plum-900">{title}</dt>
      <dd className="break-words text-neutral-800">{children}</dd>
    </div>
  );
}

function ListEntry({ title, values }: { title: string; values: string[] }) {
  if (values.length === 0) return null;
  return <Entry title={title}>{values.join(", ")}</Entry>;
}
