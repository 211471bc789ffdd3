import { GuidePage, guideMetadata } from "@/components/guides/guide-page";

export const metadata = guideMetadata("linking-sims-to-other-trees");

export default function Page() {
  return <GuidePage slug="linking-sims-to-other-trees" />;
}
