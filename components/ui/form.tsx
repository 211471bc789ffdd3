"use client";
import { createContext, useContext, useState, type ComponentProps, type FormEvent } from "react";
import type { z } from "zod";
import { ApiRequestError } from "@/lib/client/api";
import { Button, type ButtonProps } from "./button";
import { cx } from "./class-names";

const FormBusy = createContext(false);

export interface FormProps extends Omit<ComponentProps<"form">, "onSubmit"> {
  /**
   * Runs on submit with the form's values. While it runs the fields are disabled and the
   * SubmitButton spins. An ApiRequestError is swallowed: the API client has already told the user.
   */
  onSubmit: (values: FormData, form: HTMLFormElement) => unknown;
}

/** A form that validates in code (noValidate), disables itself while submitting, and never reloads. */
export function Form({ onSubmit, className, children, ...props }: FormProps) {
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    setBusy(true);
    try {
      await onSubmit(new FormData(form), form);
    } catch (error) {
      if (!(error instanceof ApiRequestError)) throw error;
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={handleSubmit} className={className} {...props}>
      <FormBusy.Provider value={busy}>
        <fieldset disabled={busy} className="m-0 min-w-0 space-y-4 border-0 p-0">
          {children}
        </fieldset>
      </FormBusy.Provider>
    </form>
  );
}

/** The submit button of a Form; it shows when the form is busy. */
export function SubmitButton(props: Omit<ButtonProps, "type" | "busy">) {
  const busy = useContext(FormBusy);
  return <Button type="submit" busy={busy} {...props} />;
}

/** A row of form buttons. */
export function FormActions({ className, ...props }: ComponentProps<"div">) {
  return <div className={cx("flex flex-wrap items-center gap-3 pt-2", className)} {...props} />;
}

/** The text value of a field ("" when absent or a file). */
export function formText(values: FormData, name: string): string {
  const value = values.get(name);
  return typeof value === "string" ? value : "";
}

/** Field name → first message, for showing zod problems next to their fields. */
export type FieldErrors = Partial<Record<string, string>>;

export type Checked<T> =
  { ok: true; data: T } | { ok: false; message: string; errors: FieldErrors };

/** Validates with the same zod schema the API uses; the first message is the one to show. */
export function checkForm<S extends z.ZodType>(schema: S, values: unknown): Checked<z.output<S>> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join(".");
    errors[field] ??= issue.message;
  }
  return { ok: false, message: parsed.error.issues[0]?.message ?? "Please check the form", errors };
}
