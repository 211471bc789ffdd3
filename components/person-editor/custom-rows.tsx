"use client";
import { useTranslations } from "next-intl";
import { Button } from "@/components/ui/button";
import { TextField } from "@/components/ui/text-field";
import { PERSON_LIMITS } from "@/lib/schemas/person";

export interface CustomRow {
  /** A stable React key; never sent to the server. */
  key: string;
  title: string;
  value: string;
}

let lastKey = 0;
/** A key for a new custom row. */
export function newRowKey(): string {
  lastKey += 1;
  return `custom-${lastKey}`;
}

interface CustomRowsProps {
  rows: CustomRow[];
  onChange: (rows: CustomRow[]) => void;
  /** The row whose Title field takes focus when it appears (the one just added). */
  focusKey: string | null;
  onAdd: () => void;
}

/** The "More (Custom)" section: free Title/Value rows, each with its own remove button. */
export function CustomRows({ rows, onChange, focusKey, onAdd }: CustomRowsProps) {
  const t = useTranslations("CustomRows");
  const update = (key: string, change: Partial<CustomRow>) =>
    onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)));

  return (
    <fieldset className="space-y-3 rounded-md border border-plum-100 p-4">
      <legend className="px-1 text-sm font-medium text-neutral-800">{t("legend")}</legend>
      <p className="text-sm text-neutral-600">{t("hint")}</p>
      {rows.length > 0 ? (
        <ol className="space-y-3" aria-label={t("listLabel")}>
          {rows.map((row, index) => (
            <li key={row.key} className="flex flex-wrap items-end gap-3">
              <TextField
                label={t("title")}
                className="min-w-40 flex-1"
                value={row.title}
                maxLength={PERSON_LIMITS.customTitle}
                autoFocus={row.key === focusKey}
                aria-label={t("titleOf", { number: index + 1 })}
                onChange={(event) => update(row.key, { title: event.target.value })}
              />
              <TextField
                label={t("value")}
                className="min-w-40 flex-[2]"
                value={row.value}
                maxLength={PERSON_LIMITS.customValue}
                aria-label={t("valueOf", { number: index + 1 })}
                onChange={(event) => update(row.key, { value: event.target.value })}
              />
              <Button
                variant="ghost"
                size="sm"
                aria-label={t("removeOf", { number: index + 1 })}
                onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
              >
                {t("remove")}
              </Button>
            </li>
          ))}
        </ol>
      ) : null}
      <Button
        variant="secondary"
        size="sm"
        onClick={onAdd}
        disabled={rows.length >= PERSON_LIMITS.customRows}
      >
        {t("add")}
      </Button>
    </fieldset>
  );
}
