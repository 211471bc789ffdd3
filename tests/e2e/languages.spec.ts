import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { LOCALES } from "@/lib/i18n/locales";
import { e2e } from "./support/config";
import { docScreenshot } from "./support/screenshots";
import { bearer, signUpViaApi } from "./support/session";
import { createPersonViaApi, createTreeViaApi, node, saveTreeDataViaApi } from "./tree-fixtures";

/** What the home page says in each language the tests read (messages/<locale>/*.json). */
const HOME = {
  en: { welcome: "Welcome to Heirloom", home: "Home", menu: "Language" },
  de: { welcome: "Willkommen bei Heirloom", home: "Startseite", menu: "Sprache" },
  ru: { welcome: "Добро пожаловать в Heirloom", home: "Главная", menu: "Язык" },
  ja: { welcome: "Heirloom へようこそ", home: "ホーム", menu: "言語" },
  "pt-BR": { welcome: "Boas-vindas ao Heirloom", home: "Início", menu: "Idioma" },
} as const;

type Shown = keyof typeof HOME;

async function expectHomeIn(page: Page, locale: Shown) {
  const words = HOME[locale];
  await expect(page.locator("html")).toHaveAttribute("lang", locale);
  await expect(page.getByRole("heading", { level: 1, name: words.welcome })).toBeVisible();
  await expect(page.getByRole("combobox", { name: words.menu })).toHaveValue(locale);
}

/** The browser's own languages, as Playwright's locale option sends them in Accept-Language. */
const BROWSERS: { locale: Shown; browser: string }[] = [
  { locale: "de", browser: "de-DE" },
  { locale: "ru", browser: "ru-RU" },
  { locale: "ja", browser: "ja-JP" },
  { locale: "pt-BR", browser: "pt-BR" },
];

for (const { locale, browser } of BROWSERS) {
  test.describe(`a browser in ${browser}`, () => {
    test.use({ locale: browser });

    test(`sees the home page and the shell in ${locale}, at both sizes`, async ({ page }) => {
      for (const [width, height] of [
        [1440, 900],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.goto("/");
        await expectHomeIn(page, locale);
        if (width > 768) {
          await expect(
            page.getByRole("navigation").getByRole("link", { name: HOME[locale].home }),
          ).toBeVisible();
        }
        // The start actions render once the session is known (client side, from the catalog).
        await expect(page.locator("main a[href='/signup']").first()).toBeVisible();
        await docScreenshot(page, `home-${locale}-${width}.png`, { fullPage: width < 768 });
      }
    });
  });
}

test.describe("a German browser", () => {
  test.use({ locale: "de-AT" });

  test("reads German from de-AT, and the menu switches to Japanese for good", async ({ page }) => {
    await page.goto("/");
    await expectHomeIn(page, "de");
    await page.getByRole("combobox", { name: "Sprache" }).selectOption("ja");
    await expectHomeIn(page, "ja");
    await expect(page.getByRole("link", { name: "ガイドを読む" })).toBeVisible();
    // The choice outlives the page: the cookie comes before the browser's Accept-Language.
    const cookie = (await page.context().cookies()).find((c) => c.name === "NEXT_LOCALE");
    expect(cookie?.value).toBe("ja");
    await page.goto("/guides");
    await expect(page.locator("html")).toHaveAttribute("lang", "ja");
    await expect(page.getByRole("navigation", { name: "メイン" })).toBeVisible();
  });
});

test("an English browser keeps English, and the phone's menu switches to German", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await expectHomeIn(page, "en");
  await page.getByRole("combobox", { name: "Language" }).selectOption({ label: "Deutsch" });
  await expectHomeIn(page, "de");
  await page.reload();
  await expectHomeIn(page, "de");
  // And back: the menu names each language in its own words, whatever the page's language.
  await page.getByRole("combobox", { name: "Sprache" }).selectOption("en");
  await expectHomeIn(page, "en");
});

test("on a phone the header's items fit side by side in every language", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const crowded: string[] = [];
  for (const locale of LOCALES) {
    await page.context().addCookies([{ name: "NEXT_LOCALE", value: locale, url: e2e.baseURL }]);
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", locale);
    await expect(page.locator("main a[href='/signup']").first()).toBeVisible();
    const problems = await page.getByRole("banner").evaluate((header) => {
      const items = [
        header.querySelector("button[aria-controls]"),
        header.querySelector("a[href='/']"),
        header.querySelector("[data-language-menu]"),
        header.querySelector("[data-language-menu] + * button, [data-language-menu] + button"),
      ].filter((item): item is HTMLElement => item instanceof HTMLElement);
      const out: string[] = [];
      if (items.length !== 4) out.push(`${items.length} items found`);
      const boxes = items.map((item) => item.getBoundingClientRect());
      boxes.forEach((box, index) => {
        const item = items[index]!;
        if (item.scrollWidth > item.clientWidth + 1) out.push(`item ${index} overflows`);
        const next = boxes[index + 1];
        if (next && box.right > next.left + 0.5)
          out.push(`items ${index} and ${index + 1} overlap`);
      });
      const last = boxes.at(-1);
      if (last && last.right > window.innerWidth) out.push("the last item is cut off");
      return out;
    });
    if (problems.length) crowded.push(`${locale}: ${problems.join(", ")}`);
  }
  expect(crowded).toEqual([]);
});

test.describe("a Japanese browser", () => {
  test.use({ locale: "ja-JP" });

  test("draws Chinese, Japanese and Korean with real glyphs, not empty boxes", async ({ page }) => {
    await page.goto("/");
    await expectHomeIn(page, "ja");
    // Each character drawn in the page's own font stack, against a code point no font has: a
    // character drawn the same as that one has no glyph on this machine (fonts-noto-cjk, ADR 041).
    const missing = await page.evaluate(() => {
      const family = getComputedStyle(document.body).fontFamily;
      const canvas = document.createElement("canvas");
      canvas.width = 48;
      canvas.height = 48;
      const context = canvas.getContext("2d")!;
      const draw = (text: string, lang: string) => {
        canvas.lang = lang;
        context.clearRect(0, 0, 48, 48);
        context.font = `32px ${family}`;
        context.fillText(text, 4, 36);
        return context.getImageData(0, 0, 48, 48).data.join();
      };
      // Cyrillic, which Debian's DejaVu draws, shows the comparison can tell a glyph from a box.
      const samples: [string, string][] = [
        ["Дом", "ru"],
        ["家系図", "ja"],
        ["가계도", "ko"],
        ["传承", "zh-Hans"],
        ["傳承", "zh-Hant"],
      ];
      return samples.flatMap(([text, lang]) => {
        const none = draw("\u{10FFFD}", lang);
        return [...text].filter((character) => draw(character, lang) === none);
      });
    });
    expect(missing).toEqual([]);
  });
});

test.describe("the account's language", () => {
  test.use({ locale: "en-US", viewport: { width: 1440, height: 900 } });

  test("wins over an English browser once logged in, and is changed on the account page", async ({
    page,
    request,
  }) => {
    const user = await signUpViaApi(request, "lang");
    const set = await request.put("/api/user/locale", {
      data: { locale: "de" },
      headers: bearer(user.token),
    });
    expect(set.status()).toBe(200);

    // a new device: an English browser with no cookie, signing in through the form
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expectHomeIn(page, "de");

    await page.goto("/account");
    const language = page.getByRole("combobox", { name: /Sprache von Heirloom/ });
    await expect(language).toHaveValue("de");
    await expect(page.getByRole("heading", { level: 2, name: "Passwort ändern" })).toBeVisible();
    await language.selectOption("ja");
    await expect(page.locator("html")).toHaveAttribute("lang", "ja");
    await expect(page.getByRole("heading", { level: 2, name: "パスワードを変更" })).toBeVisible();
    // said in the language just chosen
    await expect(page.getByText("言語を保存しました")).toBeVisible();
    await docScreenshot(page, "account-ja-1440.png", { fullPage: true });
    const cookie = (await page.context().cookies()).find((c) => c.name === "NEXT_LOCALE");
    expect(cookie?.value).toBe("ja");
    const read = await request.get("/api/user/locale", { headers: bearer(user.token) });
    expect(await read.json()).toEqual({ locale: "ja" });
  });
});

/** The Gallery's words in the languages the tests read (messages/<locale>/gallery.json). */
const GALLERY = {
  de: {
    heading: "Galerie",
    by: (author: string) => `von ${author}`,
    found: (name: string) => `Gefunden: ${name}`,
    counts: "1 Sim · 1 Generation",
    notFound: "Diese Seite der Galerie gibt es nicht",
    back: "Zurück zur Galerie",
  },
  ja: {
    heading: "ギャラリー",
    by: (author: string) => `作者：${author}`,
    found: (name: string) => `見つかったシム：${name}`,
    counts: "シム 1 人 · 1 世代",
    notFound: "ギャラリーのこのページはありません",
    back: "ギャラリーに戻る",
  },
} as const;

for (const [locale, browser] of [
  ["de", "de-DE"],
  ["ja", "ja-JP"],
] as const) {
  test.describe(`the Gallery in a ${browser} browser`, () => {
    test.use({ locale: browser });

    test(`reads ${locale} at both sizes, names the author and the Sim found, and a page past the last is a 404`, async ({
      page,
      request,
    }) => {
      const tag = randomBytes(3).toString("hex");
      const user = await signUpViaApi(request, "gal");
      const tree = await createTreeViaApi(request, user.token, { title: `Zweig ${tag}` });
      const sim = await createPersonViaApi(request, user.token, tree._id, {
        firstName: `Zoë${tag}`,
        lastName: "Landgraab",
      });
      await saveTreeDataViaApi(request, user.token, tree._id, node(sim));
      const listed = await request.put(`/api/published/${tree._id}`, {
        data: { publishToGallery: true },
        headers: bearer(user.token),
      });
      expect(listed.status()).toBe(200);
      const words = GALLERY[locale];

      for (const [width, height] of [
        [1440, 900],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.goto(`/gallery?search=${encodeURIComponent(`zoe${tag}`)}`);
        await expect(page.locator("html")).toHaveAttribute("lang", locale);
        await expect(page.getByRole("heading", { level: 1, name: words.heading })).toBeVisible();
        const tile = page.locator(`a[href='/public/${tree._id}']`);
        await expect(tile).toContainText(words.by(user.username));
        await expect(tile).toContainText(words.found(`Zoë${tag} Landgraab`));
        await expect(tile).toContainText(words.counts);
        await docScreenshot(page, `gallery-${locale}-${width}.png`, { fullPage: width < 768 });
      }

      const past = await page.goto("/gallery?page=999");
      expect(past?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: words.notFound })).toBeVisible();
      await page.getByRole("link", { name: words.back }).click();
      await expect(page).toHaveURL(/\/gallery$/);
      await expect(page.getByRole("heading", { level: 1, name: words.heading })).toBeVisible();
    });
  });
}
