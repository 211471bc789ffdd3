import type { Page } from "@playwright/test";

/**
 * Screenshots for docs/screenshots/ are taken only on demand, with SCREENSHOTS=1 (README): an
 * ordinary test run leaves the committed files alone.
 */
export async function docScreenshot(
  page: Page,
  file: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (process.env.SCREENSHOTS !== "1") return;
  await page.screenshot({ path: `docs/screenshots/${file}`, ...options });
}
