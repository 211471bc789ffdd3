"use client";
import { Button } from "@/components/ui/button";
import type { TreeNode } from "@/lib/schemas/tree";

/** A tree with nobody in it yet: its root has no Sim, no partners and no children. */
export function isEmptyTree(data: TreeNode): boolean {
  return !data.person && data.partners.length === 0 && data.children.length === 0;
}

/**
 * What a new tree says to do next: choose or create its first Sim. The button opens the root
 * node's editor, as clicking the "?" node does.
 */
export function EmptyTreeGuide({ onStart }: { onStart: () => void }) {
  return (
    <section
      aria-labelledby="empty-tree-guide"
      className="absolute bottom-6 left-1/2 z-10 w-[min(28rem,calc(100%-2rem))] -translate-x-1/2 rounded-lg border border-plum-200 bg-white p-4 text-center shadow-lg"
    >
      <h2 id="empty-tree-guide" className="font-semibold text-plum-900">
        Your tree is empty
      </h2>
      <p className="mt-1 text-sm text-neutral-700">
        Start with the founder of your legacy: click the <strong>?</strong> node, or the button
        below, then pick a Sim or create a new one. Add children with the + under each node.
      </p>
      <Button className="mt-3" onClick={onStart}>
        Add your first Sim
      </Button>
    </section>
  );
}
