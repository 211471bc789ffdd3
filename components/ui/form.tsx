"use client";
import {
  createContext,
  useContext,
  useId,
  useState,
  type ComponentProps,
  type ChangeEvent,
  type FormEvent,
} from "react";
import type { z } from "zod";
import { ApiRequestError } from "@/lib/client/api";
import { Button, type ButtonProps } from "./button";
import { cx } from "./class-names";
import { useKnownText } from "./known-text";

const FormBusy = createContext(false);
const FormFieldErrors = createContext<FieldErrors>({});

/**
 * Thrown from a Form's onSubmit when the values are not valid: the Form shows each message
 * beside its field (see checkForm), or above the fields when no field has that name.
 */
export class FormProblem extends Error {
  constructor(
    message: string,
    readonly errors: FieldErrors = {},
  ) {
    super(message);
    this.name = "FormProblem";
  }
}

/** The data of a valid form, or a thrown FormProblem with each message beside its field. */
export function validOrThrow<T>(checked: Checked<T>): T {
  if (!checked.ok) throw new FormProblem(checked.message, checked.errors);
  return checked.data;
}

/** The message a Form shows beside the field named `name`, if any. */
export function useFieldError(name: string | undefined): string | undefined {
  const errors = useContext(FormFieldErrors);
  return name ? errors[name] : undefined;
}

export interface FormProps extends Omit<ComponentProps<"form">, "onSubmit"> {
  /**
   * Runs on submit with the form's values. While it runs the fields are disabled and the
   * SubmitButton spins. A thrown FormProblem, or an ApiRequestError of an `inline` call, is shown
   * beside its field (or above the fields), and cleared when that field changes. Other
   * ApiRequestErrors are swallowed: the API client has already told the user.
   */
  onSubmit: (values: FormData, form: HTMLFormElement) => unknown;
}

function hasField(form: HTMLFormElement, name: string): boolean {
  return form.elements.namedItem(name) !== null;
}

/** A form that validates in code (noValidate), disables itself while submitting, and never reloads. */
export function Form({ onSubmit, onChange, className, children, ...props }: FormProps) {
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formErrorId = useId();
  // the server's and the schemas' English sentences, in the reader's language (issue 36)
  const inReadersWords = useKnownText();

  function show(form: HTMLFormElement, errors: FieldErrors, message: string | null) {
    const known: FieldErrors = {};
    for (const [name, text] of Object.entries(errors)) {
      if (text && hasField(form, name)) known[name] = inReadersWords(text);
    }
    const names = Object.keys(known);
    setFieldErrors(known);
    setFormError(names.length === 0 && message !== null ? inReadersWords(message) : null);
    // Focus the first field in error, after the fieldset is enabled again.
    const first = names[0];
    if (first) {
      requestAnimationFrame(() => {
        const element = form.elements.namedItem(first);
        if (element instanceof HTMLElement) element.focus();
      });
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    setBusy(true);
    setFieldErrors({});
    setFormError(null);
    try {
      await onSubmit(new FormData(form), form);
    } catch (error) {
      if (error instanceof FormProblem) show(form, error.errors, error.message);
      else if (error instanceof ApiRequestError) {
        if (error.inline && error.text) {
          show(form, error.field ? { [error.field]: error.text } : {}, error.text);
        }
      } else throw error;
    } finally {
      setBusy(false);
    }
  }

  function handleChange(event: ChangeEvent<HTMLFormElement>) {
    const name = (event.target as { name?: unknown }).name;
    if (typeof name === "string" && fieldErrors[name]) {
      setFieldErrors(({ [name]: _cleared, ...rest }) => rest);
    }
    setFormError(null);
    onChange?.(event);
  }

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      onChange={handleChange}
      aria-describedby={formError ? formErrorId : undefined}
      className={className}
      {...props}
    >
      <FormBusy.Provider value={busy}>
        <FormFieldErrors.Provider value={fieldErrors}>
          <fieldset disabled={busy} className="m-0 min-w-0 space-y-4 border-0 p-0">
            {formError && (
              <p
                id={formErrorId}
                role="alert"
                className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
              >
                {formError}
              </p>
            )}
            {children}
          </fieldset>
        </FormFieldErrors.Provider>
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

/**
 * For an `inline` API call: the field a server detail is about. The server validates with the
 * same zod schema, so a detail that is one of the schema's messages for `values` names the
 * issue's field; `known` maps the server's other details (such as "That username is taken").
 */
export function fieldOfSchema(
  schema: z.ZodType,
  values: unknown,
  known: Partial<Record<string, string>> = {},
): (detail: string) => string | null {
  return (detail) => {
    const mapped = known[detail];
    if (mapped) return mapped;
    const parsed = schema.safeParse(values);
    if (parsed.success) return null;
    const issue = parsed.error.issues.find((candidate) => detail.endsWith(candidate.message));
    return issue ? issue.path.map(String).join(".") || null : null;
  };
}
