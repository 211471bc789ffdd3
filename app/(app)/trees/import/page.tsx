import type { Metadata } from "next";
import { RequireLogin } from "@/components/shell/session-guards";
import { ImportForm } from "@/components/tree-import/import-form";

export const metadata: Metadata = { title: "Import Tree" };

export default function ImportTreePage() {
  return (
    <RequireLogin>
      <ImportForm />
    </RequireLogin>
  );
}
