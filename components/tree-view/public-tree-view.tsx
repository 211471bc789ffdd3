"use client";
import { useMemo } from "react";
import { TreeWorkspace } from "@/components/tree-editor/tree-workspace";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { layoutTree } from "@/lib/tree/layout";

export interface PublicTreeViewProps {
  tree: Pick<Tree, "_id" | "title" | "description" | "cover" | "data">;
  people: Person[];
  /** From ?p=: this Sim's panel is open and the Sim is centred. */
  initialPersonId?: string | null;
}

/**
 * The read-only canvas of a published tree: no buttons or node backgrounds, panels at the top,
 * no Edit link. It fills its container, which must have a height.
 */
export function PublicTreeView({ tree, people, initialPersonId }: PublicTreeViewProps) {
  const peopleById = useMemo(() => new Map(people.map((person) => [person._id, person])), [people]);
  const layout = useMemo(() => layoutTree(tree.data, peopleById), [tree.data, peopleById]);
  return (
    <div className="relative flex h-full min-h-[420px] flex-col overflow-hidden">
      <TreeWorkspace
        treeId={tree._id}
        info={tree}
        layout={layout}
        people={peopleById}
        preview
        readOnly
        panelTop={0}
        initialPersonId={initialPersonId}
      />
    </div>
  );
}
