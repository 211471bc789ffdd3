import { GuidePage, guideMetadata } from "@/components/guides/guide-page";

export const metadata = guideMetadata("create-a-tree");

export default function Page() {
  return <GuidePage slug="create-a-tree" />;
}
