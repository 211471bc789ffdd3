import { GuidePage, guideMetadata } from "@/components/guides/guide-page";

export const metadata = guideMetadata("finding-sims");

export default function Page() {
  return <GuidePage slug="finding-sims" />;
}
