import { IntentLink } from "@/components/ui/intent-link";
import type { ComponentProps } from "react";
import { cx, focusRing } from "./class-names";

export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";
export type ButtonSize = "sm" | "md";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-plum-600 text-white hover:bg-plum-700",
  secondary: "border border-plum-200 bg-white text-plum-700 hover:bg-plum-100",
  danger: "bg-red-700 text-white hover:bg-red-800",
  ghost: "text-plum-700 hover:bg-plum-100",
};

const sizes: Record<ButtonSize, string> = {
  sm: "px-3 py-1.5 text-sm",
  md: "px-4 py-2 text-sm",
};

/** The classes of a button, for elements that must look like one. */
export function buttonClasses({
  variant = "primary",
  size = "md",
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}): string {
  return cx(
    "inline-flex items-center justify-center gap-2 rounded-md font-medium transition-colors",
    "disabled:cursor-not-allowed disabled:opacity-60",
    focusRing,
    variants[variant],
    sizes[size],
    className,
  );
}

export interface ButtonProps extends ComponentProps<"button"> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows that the action is running and blocks a second click. */
  busy?: boolean;
}

export function Button({
  variant,
  size,
  busy = false,
  className,
  type = "button",
  disabled,
  children,
  ...props
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled ?? busy}
      aria-busy={busy || undefined}
      className={buttonClasses({ variant, size, className })}
      {...props}
    >
      {busy && (
        <span
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
        />
      )}
      {children}
    </button>
  );
}

export type LinkButtonProps = ComponentProps<typeof IntentLink> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
};

/** A link that looks like a button (navigation, not an action). */
export function LinkButton({ variant, size, className, ...props }: LinkButtonProps) {
  return <IntentLink className={buttonClasses({ variant, size, className })} {...props} />;
}

/** A plain text link in the house colours. */
export function TextLink({ className, ...props }: ComponentProps<typeof IntentLink>) {
  return (
    <IntentLink
      className={cx(
        "text-plum-700 hover:text-plum-900 font-medium underline underline-offset-2",
        focusRing,
        className,
      )}
      {...props}
    />
  );
}
