import type { Metadata } from "next";
import { NotFoundMessage } from "@/components/ui/not-found-message";

export const metadata: Metadata = { title: "Page not found" };

// notFound() in a page of the app (an unknown guide, tree or person) renders here, inside the
// (app) layout's shell; app/not-found.tsx would draw a second shell inside it.
export default function NotFound() {
  return <NotFoundMessage />;
}
