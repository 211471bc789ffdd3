"use client";
import { useEffect, useState } from "react";
import type { Size } from "./viewport";

/** The content size of an element, kept current with a ResizeObserver; null until it has one. */
export function useElementSize(element: Element | null): Size | null {
  const [size, setSize] = useState<Size | null>(null);
  useEffect(() => {
    if (!element) return;
    const update = () => {
      const { width, height } = element.getBoundingClientRect();
      const next = { width: Math.round(width), height: Math.round(height) };
      setSize((current) =>
        next.width === 0 || next.height === 0
          ? current
          : current && current.width === next.width && current.height === next.height
            ? current
            : next,
      );
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return size;
}
