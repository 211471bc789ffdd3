import Image from "next/image";
import { useTranslations } from "next-intl";
import { TextLink } from "@/components/ui/button";
import { PlumTreeSection } from "@/components/home/plum-tree-section";
import { StartActions } from "@/components/shell/start-actions";

/** How far the canvas zooms out, in the first feature's words. */
const GENERATIONS_AT_A_GLANCE = 10;

export default function HomePage() {
  const t = useTranslations("Home");
  // Each feature's texts by key, so that every key in the catalogs is named in the code.
  const features = [
    {
      id: "grow",
      title: t("growTitle"),
      text: t("growText", { count: GENERATIONS_AT_A_GLANCE }),
    },
    { id: "story", title: t("storyTitle"), text: t("storyText") },
    { id: "share", title: t("shareTitle"), text: t("shareText") },
  ];
  return (
    <div className="mx-auto max-w-4xl space-y-12">
      <section
        aria-labelledby="welcome"
        className="flex flex-col-reverse gap-8 sm:flex-row sm:items-center"
      >
        <div className="space-y-4">
          <h1 id="welcome" className="text-3xl font-bold text-plum-900 sm:text-4xl">
            {t("welcome")}
          </h1>
          <p className="text-lg text-neutral-800">{t("intro")}</p>
          <p className="text-neutral-700">{t("plumTreeHome")}</p>
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
          {t("featuresHeading")}
        </h2>
        <ul className="grid gap-4 md:grid-cols-3">
          {features.map((feature) => (
            <li
              key={feature.id}
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
          {t("newHere")}
        </h2>
        <p className="mt-2 text-neutral-800">
          {t.rich("guidesText", {
            guides: (chunks) => <TextLink href="/guides">{chunks}</TextLink>,
          })}
        </p>
      </section>
    </div>
  );
}
