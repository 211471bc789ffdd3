"use client";
import { useEffect, useRef } from "react";
import type { PersonLink } from "@/lib/schemas/person";
import { LAYOUT } from "@/lib/tree/layout";
import { publicPersonUrl } from "./labels";

export interface LinkListProps {
  name: string;
  links: PersonLink[];
  /** Where the list opens, in layout coordinates. */
  x: number;
  y: number;
  onClose: () => void;
}

/** The titles of a Sim's links to other public trees; each goes to that tree with the Sim open. */
export function LinkList({ name, links, x, y, onClose }: LinkListProps) {
  const firstLink = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    firstLink.current?.focus({ preventScroll: true });
  }, []);

  const { linkListWidth, linkItemHeight } = LAYOUT;
  return (
    <foreignObject
      x={x}
      y={y}
      width={linkListWidth}
      height={linkItemHeight * links.length}
      data-link-list=""
    >
      <ul
        aria-label={`Links of ${name}`}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            event.stopPropagation();
            onClose();
          }
        }}
        className="overflow-hidden rounded-md border border-plum-200 bg-white shadow-lg"
      >
        {links.map((link, index) => (
          <li key={`${link.treeId}/${link.personId}/${index}`}>
            <a
              ref={index === 0 ? firstLink : undefined}
              href={publicPersonUrl(link.treeId, link.personId)}
              style={{ height: linkItemHeight, lineHeight: `${linkItemHeight}px` }}
              className="block truncate px-3 text-sm font-medium text-plum-700 outline-none hover:bg-plum-50 focus-visible:bg-plum-50"
            >
              {link.title || "Untitled link"}
            </a>
          </li>
        ))}
      </ul>
    </foreignObject>
  );
}
