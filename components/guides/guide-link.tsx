"use client";
import { IntentLink } from "@/components/ui/intent-link";
import type { ComponentProps } from "react";

/** A link between guides that glides back to the top of the page as the next guide opens. */
export function GuideLink({ onClick, ...props }: ComponentProps<typeof IntentLink>) {
  return (
    <IntentLink
      {...props}
      scroll={false}
      onClick={(event) => {
        onClick?.(event);
        const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        window.scrollTo({ top: 0, behavior: reduceMotion ? "auto" : "smooth" });
      }}
    />
  );
}
