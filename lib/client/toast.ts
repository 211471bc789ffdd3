"use client";
import { toast } from "sonner";

/**
 * Toasts as the spec has them: success auto-closes after 8000 ms, errors stay until closed.
 * An error toast has a topic (the action it is about, by default its own text): a second error
 * on the same topic replaces the first instead of piling up, and `resolved(topic)` closes it
 * once that action succeeds.
 */
export const notify = {
  success: (message: string) => toast.success(message),
  info: (message: string) => toast(message),
  warning: (message: string, topic: string = message) => toast.warning(message, { id: topic }),
  error: (message: string, topic: string = message) =>
    toast.error(message, { id: topic, duration: Infinity, closeButton: true }),
  /** Closes the error or warning toast of `topic`, if one is open. */
  resolved: (topic: string) => toast.dismiss(topic),
};
