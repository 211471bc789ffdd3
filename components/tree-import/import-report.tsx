"use client";
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
}

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

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
  const { treeId, title, people, families, notes } = report;
  const summary =
    families !== null && families > 1
      ? `${count(people, "Sim", "Sims")} in ${count(families, "family", "families")}: the largest opens first, the others sit beside it, unlinked.`
      : `${count(people, "Sim", "Sims")}.`;
  return (
    <>
      <PageHeader title="Tree imported" description={`“${title}” is ready: ${summary}`} />
      <Card className="max-w-3xl space-y-4">
        <section aria-labelledby="import-notes-heading" data-import-notes="">
          <h2 id="import-notes-heading" className="text-lg font-semibold text-neutral-900">
            What the import read past
          </h2>
          <p className="mt-1 text-sm text-neutral-700">
            Everything that could be read is in the tree. These parts of the file could not be, so
            they were left out. Your genealogy program can fix them in the original file.
          </p>
          <ul className="mt-3 list-disc space-y-2 pl-5 text-sm break-words text-neutral-800">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </section>
        <div className="flex flex-wrap gap-3">
          <IntentLink href={`/trees/${encodeURIComponent(treeId)}`} className={buttonClasses()}>
            Open the tree
          </IntentLink>
          <Button type="button" variant="secondary" onClick={onAnother}>
            Import another file
          </Button>
        </div>
      </Card>
    </>
  );
}
