import { GuidePage, guideMetadata } from "@/components/guides/guide-page";

export const metadata = guideMetadata("tree-editor");

export default function Page() {
  return <GuidePage slug="tree-editor" />;
}
