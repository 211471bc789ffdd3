/** True when `text` has no NUL character and no unpaired surrogate (PostgreSQL can store it). */
export function isStorable(text: string): boolean {
  return !text.includes("\u0000") && text.isWellFormed();
}
