"use client";
import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { Button, buttonClasses } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/text-field";

/**
 * A read-only URL field with a Copy button, and an Open button when `openLabel` is given; the
 * outcome of Copy is announced next to it.
 */
export function CopyLink({
  label,
  url,
  openLabel,
}: {
  label: string;
  url: string;
  openLabel?: string;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const t = useTranslations("CopyLink");
  const [status, setStatus] = useState<"idle" | "copied" | "manual">("idle");

  useEffect(() => {
    if (status !== "copied") return;
    const timer = setTimeout(() => setStatus("idle"), 3000);
    return () => clearTimeout(timer);
  }, [status]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setStatus("copied");
    } catch {
      // No clipboard access (e.g. a plain-HTTP host): select it so the user can copy by hand.
      inputRef.current?.select();
      setStatus("manual");
    }
  }

  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-neutral-800">
        {label}
      </label>
      <div className="flex flex-wrap gap-2">
        <input
          ref={inputRef}
          id={id}
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
          className={`${inputClasses} min-w-0 flex-1 font-mono text-sm`}
        />
        <Button variant="secondary" onClick={() => void copy()}>
          {t("copy")}
        </Button>
        {openLabel ? (
          <a
            href={url}
            target="_blank"
            rel="noopener"
            className={buttonClasses({ variant: "secondary" })}
          >
            {openLabel}
          </a>
        ) : null}
      </div>
      <p role="status" className="min-h-5 text-sm text-neutral-700">
        {status === "copied" ? t("copied") : null}
        {status === "manual" ? t("manual") : null}
      </p>
    </div>
  );
}
