import { GuidePage, guideMetadata } from "@/components/guides/guide-page";

export const metadata = guideMetadata("publising-trees");

export default function Page() {
  return <GuidePage slug="publising-trees" />;
}
