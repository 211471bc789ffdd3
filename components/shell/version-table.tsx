"use client";
import { useTranslations } from "next-intl";
import { useEffect, useState, useSyncExternalStore } from "react";
import { api } from "@/lib/client/api";
import { Loading } from "@/components/ui/loading";

interface ApiVersion {
  version: string;
  color: string;
}

const UNKNOWN = "unknown";

const noSubscription = () => () => undefined;

/** The version table: the API's values come from GET /api/version, the UI's from the server. */
export function VersionTable({ uiVersion, uiColor }: { uiVersion: string; uiColor: string }) {
  const t = useTranslations("VersionTable");
  const [apiVersion, setApiVersion] = useState<ApiVersion | null>(null);
  const domain = useSyncExternalStore(
    noSubscription,
    () => window.location.host,
    () => null,
  );

  useEffect(() => {
    let current = true;
    // Failures are silent: the table says "unknown" instead.
    api<ApiVersion>("/api/version", { auth: false, silent: true }).then(
      (answer) => current && setApiVersion(answer),
      () => current && setApiVersion({ version: UNKNOWN, color: UNKNOWN }),
    );
    return () => {
      current = false;
    };
  }, []);

  // "unknown" is the API's word when the call failed, or the build's: shown in the reader's words.
  const shown = (value: string) => (!value || value === UNKNOWN ? t("unknown") : value);

  if (!apiVersion || domain === null) return <Loading label={t("loading")} />;

  const rows: [string, string][] = [
    [t("apiVersion"), shown(apiVersion.version)],
    [t("apiColor"), shown(apiVersion.color)],
    [t("uiVersion"), shown(uiVersion)],
    [t("uiColor"), shown(uiColor)],
    [t("domain"), domain],
  ];
  return (
    <table className="w-full max-w-lg overflow-hidden rounded-lg border border-plum-100 bg-white text-left shadow-sm">
      <caption className="sr-only">{t("caption")}</caption>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name} className="border-b border-plum-100 last:border-b-0">
            <th scope="row" className="w-40 bg-plum-50 px-4 py-3 font-medium text-plum-900">
              {name}
            </th>
            <td className="px-4 py-3 font-mono text-sm break-all">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
