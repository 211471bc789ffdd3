import type { Metadata } from "next";
import { getEnv } from "@/lib/env";
import { buildHash } from "@/lib/server/build-hash";
import { PageHeader } from "@/components/ui/card";
import { VersionTable } from "@/components/shell/version-table";

export const metadata: Metadata = { title: "Version" };

export default function VersionPage() {
  return (
    <>
      <PageHeader
        title="Version"
        description="What is running right now, for bug reports and deployment checks."
      />
      <VersionTable uiVersion={buildHash() ?? "unknown"} uiColor={getEnv().DEPLOY_COLOR} />
    </>
  );
}
