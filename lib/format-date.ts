function ordinal(day: number): string {
  const lastTwo = day % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${day}th`;
  switch (day % 10) {
    case 1:
      return `${day}st`;
    case 2:
      return `${day}nd`;
    case 3:
      return `${day}rd`;
    default:
      return `${day}th`;
  }
}

/**
 * A date as "March 3rd, 2025": month name, day with its ordinal, year (SPEC.md's English). In
 * another language (a locale other than English), the long date as Intl writes it there
 * ("3. März 2025", "2025年3月3日"). The time zone defaults to the runtime's (the reader's, in the
 * browser). Throws a RangeError for an invalid date.
 */
export function formatLongDate(
  value: Date | string | number,
  timeZone?: string,
  locale = "en",
): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a valid date: ${String(value)}`);
  if (!/^en\b/i.test(locale)) {
    return new Intl.DateTimeFormat(locale, { timeZone, dateStyle: "long" }).format(date);
  }
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "long",
    day: "numeric",
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? "";
  return `${part("month")} ${ordinal(Number(part("day")))}, ${part("year")}`;
}
