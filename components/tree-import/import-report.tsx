"use client";
import { useTranslations } from "next-intl";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { IntentLink } from "@/components/ui/intent-link";

/** A finished import that read past faults in the file (issue 13). */
export interface ImportReport {
  treeId: string;
  title: string;
  people: number;
  /** Unconnected families, when the server counted them. */
  families: number | null;
  /** One sentence per kind of fault, e.g. "622 pointers refer to records that are not in the file…". */
  notes: string[];
  /**
   * A Sims 4 save or tray item: the report speaks of the Sims and what the save lacked, not of a
   * file a genealogy program can fix (issue 34).
   */
  game?: boolean;
}

/**
 * What the import left out or read past, shown on the import page after the tree is created,
 * with the way on to the new tree.
 */
export function ImportReportCard({
  report,
  onAnother,
}: {
  report: ImportReport;
  onAnother: () => void;
}) {
  const t = useTranslations("ImportReport");
  const { treeId, title, people, families, notes, game } = report;
  const description =
    families !== null && families > 1
      ? t("readyFamilies", { title, people, families })
      : t("ready", { title, people });
  return (
    <>
      <PageHeader title={t("title")} description={description} />
      <Card className="max-w-3xl space-y-4">
        <section
          aria-labelledby="import-notes-heading"
          data-import-notes=""
          data-game={game ? "" : undefined}
        >
          <h2 id="import-notes-heading" className="text-lg font-semibold text-neutral-900">
            {game ? t("gameHeading") : t("heading")}
          </h2>
          <p className="mt-1 text-sm text-neutral-700">{game ? t("gameIntro") : t("intro")}</p>
          <ul className="mt-3 list-disc space-y-2 pl-5 text-sm break-words text-neutral-800">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </section>
        <div className="flex flex-wrap gap-3">
          <IntentLink href={`/trees/${encodeURIComponent(treeId)}`} className={buttonClasses()}>
            {t("open")}
          </IntentLink>
          <Button type="button" variant="secondary" onClick={onAnother}>
            {t("another")}
          </Button>
        </div>
      </Card>
    </>
  );
}
