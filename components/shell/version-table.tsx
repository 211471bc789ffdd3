"use client";
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

  if (!apiVersion || domain === null) return <Loading label="Loading version" />;

  const rows: [string, string][] = [
    ["API Version", apiVersion.version || UNKNOWN],
    ["API Color", apiVersion.color || UNKNOWN],
    ["UI Version", uiVersion],
    ["UI Color", uiColor],
    ["Domain", domain],
  ];
  return (
    <table className="border-plum-100 w-full max-w-lg overflow-hidden rounded-lg border bg-white text-left shadow-sm">
      <caption className="sr-only">Versions of the running Heirloom</caption>
      <tbody>
        {rows.map(([name, value]) => (
          <tr key={name} className="border-plum-100 border-b last:border-b-0">
            <th scope="row" className="bg-plum-50 text-plum-900 w-40 px-4 py-3 font-medium">
              {name}
            </th>
            <td className="px-4 py-3 font-mono text-sm break-all">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
