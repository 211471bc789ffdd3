import { useTranslations } from "next-intl";
import { buttonClasses } from "./button";

/**
 * The body of every 404 page. Its link (home, unless a page names another, as the Gallery's page
 * past the last does) is a plain <a>, so it is in the server-rendered HTML and works before (or
 * without) the app's scripts.
 */
export function NotFoundMessage({
  title,
  text,
  link,
}: {
  title?: string;
  text?: string;
  link?: { href: string; label: string };
} = {}) {
  const t = useTranslations("NotFound");
  return (
    <div className="mx-auto max-w-xl py-10 text-center">
      <p className="text-6xl font-bold text-plum-500" aria-hidden="true">
        {404}
      </p>
      <h1 className="mt-4 text-2xl font-bold text-plum-900">{title ?? t("title")}</h1>
      <p className="mt-2 text-neutral-700">{text ?? t("text")}</p>
      <a href={link?.href ?? "/"} className={buttonClasses({ className: "mt-6" })}>
        {link?.label ?? t("home")}
      </a>
    </div>
  );
}
