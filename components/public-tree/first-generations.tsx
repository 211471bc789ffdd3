import { fullName } from "@/components/people/person-name";
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";

/** How many generations the page's HTML names, and at most how many families in all. */
export const FIRST_GENERATIONS = 3;
const MAX_FAMILIES = 60;

/**
 * The tree's first generations as plain text, in the page's HTML: what a reader without
 * JavaScript, a search engine or a link preview sees, until the full tree has arrived as the
 * cached snapshot. Kept small (names only, a bounded number of families), so that the HTML stays
 * a few kilobytes at any tree size.
 */
export function FirstGenerations({
  data,
  people,
  listHref,
}: {
  data: TreeNode;
  people: ReadonlyMap<string, Pick<Person, "firstName" | "lastName">>;
  listHref: string;
}) {
  const name = (id: string | undefined) => {
    const person = id ? people.get(id) : undefined;
    return person ? fullName(person) || "Unnamed Sim" : "Unknown Sim";
  };
  const shown = firstFamilies(data);

  function family(node: TreeNode, key: number) {
    const partners = node.partners.flatMap((entry) => entry.people.map((ref) => name(ref._id)));
    const children = node.children.filter((child) => shown.has(child));
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

/** The families named: generation by generation from the root, hidden ones left out, bounded. */
function firstFamilies(root: TreeNode): Set<TreeNode> {
  const shown = new Set<TreeNode>([root]);
  let generation = [root];
  for (let depth = 1; depth < FIRST_GENERATIONS && shown.size < MAX_FAMILIES; depth += 1) {
    const next: TreeNode[] = [];
    for (const node of generation) {
      for (const child of node.children) {
        if (child.hidden || shown.size >= MAX_FAMILIES) continue;
        shown.add(child);
        next.push(child);
      }
    }
    generation = next;
  }
  return shown;
}
