import Image from "next/image";
import { TextLink } from "@/components/ui/button";
import { PlumTreeSection } from "@/components/home/plum-tree-section";
import { StartActions } from "@/components/shell/start-actions";

const FEATURES = [
  {
    title: "Trees that grow with your legacy",
    text: "Place each Sim once and build outwards: partners beside them, children below, biological and adoptive parents on every branch. Zoom out to see ten generations at a glance, or zoom in on a single household.",
  },
  {
    title: "Every Sim's story in one place",
    text: "Give each Sim a portrait, a biography, traits, aspirations, life states and your own custom details. Edit a Sim once and every spot they appear in the tree updates with them.",
  },
  {
    title: "Publish, share and connect",
    text: "Publish a read-only copy of your tree and share its link with friends and fellow simmers. Link a Sim to the same Sim in another public tree, so visitors can follow them from one legacy into the next.",
  },
];

export default function HomePage() {
  return (
    <div className="mx-auto max-w-4xl space-y-12">
      <section
        aria-labelledby="welcome"
        className="flex flex-col-reverse gap-8 sm:flex-row sm:items-center"
      >
        <div className="space-y-4">
          <h1 id="welcome" className="text-3xl font-bold text-plum-900 sm:text-4xl">
            Welcome to Heirloom
          </h1>
          <p className="text-lg text-neutral-800">
            Heirloom is a tool to create dynamic family trees for your Sims legacies, and to publish
            and share them. Record every heir, spouse, clone and alien abduction, then show your
            family to the world.
          </p>
          <p className="text-neutral-700">
            Heirloom was made as a new home for the players of The Plum Tree and their legacies.
          </p>
          <StartActions />
        </div>
        <Image
          src="/assets/logo.svg"
          alt=""
          width={160}
          height={160}
          unoptimized
          className="mx-auto shrink-0 sm:mx-0"
        />
      </section>

      <PlumTreeSection />

      <section aria-labelledby="features">
        <h2 id="features" className="sr-only">
          Features
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          {FEATURES.map((feature) => (
            <li
              key={feature.title}
              className="rounded-lg border border-plum-100 bg-white p-5 shadow-sm"
            >
              <h3 className="text-lg font-semibold text-plum-900">{feature.title}</h3>
              <p className="mt-2 text-neutral-700">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="learn" className="rounded-lg bg-plum-100 p-6">
        <h2 id="learn" className="text-xl font-semibold text-plum-900">
          New here?
        </h2>
        <p className="mt-2 text-neutral-800">
          The guides walk you through creating a tree, adding your Sims, placing them and publishing
          your legacy. <TextLink href="/guides">Read the guides</TextLink> to get started.
        </p>
      </section>
    </div>
  );
}
