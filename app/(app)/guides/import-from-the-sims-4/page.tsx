import { GuidePage, guideMetadata } from "@/components/guides/guide-page";

export const metadata = guideMetadata("import-from-the-sims-4");

export default function Page() {
  return <GuidePage slug="import-from-the-sims-4" />;
}
