import { fullName } from "@/components/people/person-name";
import type { FirstGenerationsCut } from "@/lib/public-tree/first-generations";
import type { TreeNode } from "@/lib/schemas/tree";

/**
 * The tree's first generations as plain text, in the page's HTML: what a reader without
 * JavaScript, a search engine or a link preview sees, until the full tree has arrived as the
 * cached snapshot. Kept small (names only, a bounded number of families), so that the HTML stays
 * a few kilobytes at any tree size. `cut` holds only the families named
 * (lib/public-tree/first-generations.ts).
 */
export function FirstGenerations({
  cut,
  listHref,
}: {
  cut: FirstGenerationsCut;
  listHref: string;
}) {
  const { data } = cut;
  const people = new Map(cut.people.map((person) => [person._id, person]));
  const name = (id: string | undefined) => {
    const person = id ? people.get(id) : undefined;
    return person ? fullName(person) || "Unnamed Sim" : "Unknown Sim";
  };
  function family(node: TreeNode, key: number) {
    const partners = node.partners.flatMap((entry) => entry.people.map((ref) => name(ref._id)));
    const children = node.children;
    return (
      <li key={key}>
        {name(node.person?._id)}
        {partners.length > 0 ? ` with ${partners.join(", ")}` : null}
        {children.length > 0 ? (
          <ul>{children.map((child, index) => family(child, index))}</ul>
        ) : null}
      </li>
    );
  }

  const empty = !data.person && data.partners.length === 0 && data.children.length === 0;
  return (
    <div className="h-full overflow-hidden p-4 pt-16 text-sm text-neutral-800">
      {empty ? (
        <p>Nobody has been placed in this tree yet.</p>
      ) : (
        <>
          <p className="mb-2 font-semibold text-plum-900">The first generations</p>
          <ul className="space-y-1 [&_ul]:ml-4 [&_ul]:border-l [&_ul]:border-plum-200 [&_ul]:pl-3">
            {family(data, 0)}
          </ul>
        </>
      )}
      <p className="mt-3">
        <a href={listHref} className="font-medium text-plum-700 underline">
          Every Sim in this tree, as a list
        </a>
      </p>
    </div>
  );
}
