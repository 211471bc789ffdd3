"use client";
import { toast } from "sonner";

/** Toasts as the spec has them: success auto-closes after 8000 ms, errors stay until closed. */
export const notify = {
  success: (message: string) => toast.success(message),
  info: (message: string) => toast(message),
  warning: (message: string) => toast.warning(message),
  error: (message: string) => toast.error(message, { duration: Infinity, closeButton: true }),
};
