import { GuidePage, guideMetadata } from "@/components/guides/guide-page";

export const metadata = guideMetadata("placing-sims");

export default function Page() {
  return <GuidePage slug="placing-sims" />;
}
