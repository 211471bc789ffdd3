"use client";
import { useId, type ComponentProps, type ReactNode } from "react";
import { cx, focusRing } from "./class-names";
import { useFieldError } from "./form";

export const inputClasses = cx(
  "block w-full rounded-md border border-neutral-300 bg-white px-3 py-2 text-base text-neutral-900",
  "placeholder:text-neutral-500 disabled:bg-neutral-100",
  "aria-invalid:border-red-700",
  focusRing,
);

export interface TextFieldProps extends Omit<ComponentProps<"input">, "id"> {
  label: string;
  /** Shown under the field and announced with it. */
  error?: string | null;
  hint?: ReactNode;
  id?: string;
}

/** A labelled input with an optional hint and error, both tied to it for assistive technology. */
export function TextField({ label, error: own, hint, id, className, ...props }: TextFieldProps) {
  // A message from the enclosing Form (a server error about this field) unless one is given.
  const fromForm = useFieldError(props.name);
  const error = own ?? fromForm;
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className={cx("space-y-1", className)}>
      <label htmlFor={inputId} className="block text-sm font-medium text-neutral-800">
        {label}
      </label>
      <input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={inputClasses}
        {...props}
      />
      {hint && (
        <p id={hintId} className="text-sm text-neutral-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </div>
  );
}
