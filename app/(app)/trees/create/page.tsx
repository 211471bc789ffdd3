import type { Metadata } from "next";
import { RequireLogin } from "@/components/shell/session-guards";
import { TreeDetailsForm } from "@/components/tree-details/tree-details-form";

export const metadata: Metadata = { title: "Create Tree" };

export default function CreateTreePage() {
  return (
    <RequireLogin>
      <TreeDetailsForm />
    </RequireLogin>
  );
}
