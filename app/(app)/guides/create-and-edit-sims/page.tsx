import { GuidePage, guideMetadata } from "@/components/guides/guide-page";

export const metadata = guideMetadata("create-and-edit-sims");

export default function Page() {
  return <GuidePage slug="create-and-edit-sims" />;
}
