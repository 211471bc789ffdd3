"use client";
import { IntentLink } from "@/components/ui/intent-link";
import { usePathname } from "next/navigation";

/** Switches the public tree between the canvas and the nested list (which needs no JavaScript). */
export function ViewSwitch({ treeId }: { treeId: string }) {
  const pathname = usePathname();
  const base = `/public/${encodeURIComponent(treeId)}`;
  const views = [
    { href: base, label: "Tree view" },
    { href: `${base}/list`, label: "List view" },
  ];
  return (
    <nav aria-label="Views of this tree" className="flex gap-2">
      {views.map((view) => {
        const current = pathname === view.href;
        return (
          <IntentLink
            key={view.href}
            href={view.href}
            aria-current={current ? "page" : undefined}
            className={`rounded-full px-3 py-1 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-plum-500 ${
              current ? "bg-plum-600 text-white" : "bg-plum-100 text-plum-900 hover:bg-plum-200"
            }`}
          >
            {view.label}
          </IntentLink>
        );
      })}
    </nav>
  );
}
