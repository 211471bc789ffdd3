"use client";
import Image from "next/image";
import { useEffect, useId, useRef } from "react";
import { resizedImageUrl } from "@/lib/image-url";
import { RichTextContent } from "@/components/rich-text/rich-text-content";
import { Button } from "@/components/ui/button";

export interface TreeInfo {
  title: string;
  description: string;
  cover: string | null;
}

/** The tree's cover, title and description: SPEC.md section 2, "Tree info panel". */
export function TreeInfoPanel({
  info,
  top,
  generations,
  onClose,
}: {
  info: TreeInfo;
  top: number;
  /** How many generations the legacy has. */
  generations?: number;
  onClose: () => void;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const title = info.title || "Untitled Tree";
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, []);

  return (
    <aside
      aria-labelledby={headingId}
      style={{ top }}
      className="absolute bottom-0 left-0 z-20 w-full max-w-md overflow-y-auto border-r border-plum-100 bg-white shadow-xl"
    >
      <div className="space-y-4 p-5">
        <div className="flex justify-end">
          <Button variant="secondary" size="sm" onClick={onClose}>
            Close
          </Button>
        </div>
        {info.cover && (
          <Image
            src={resizedImageUrl(info.cover, "600x320")}
            alt={`Cover of ${title}`}
            width={600}
            height={320}
            unoptimized
            className="aspect-[15/8] w-full rounded-lg bg-plum-100 object-cover"
          />
        )}
        <h2
          id={headingId}
          ref={heading}
          tabIndex={-1}
          className="text-2xl font-bold break-words text-plum-900 outline-none"
        >
          {title}
        </h2>
        {generations !== undefined && generations > 0 && (
          <p className="text-plum-800 font-semibold">
            {generations === 1 ? "1 generation" : `${generations} generations`}
          </p>
        )}
        <RichTextContent html={info.description} className="text-neutral-800" />
      </div>
    </aside>
  );
}
