"use client";
import { useTranslations } from "next-intl";
import type { ReactNode } from "react";
import { Disclosure } from "@/components/ui/disclosure";

/** One mark as the canvas draws it (components/tree-canvas/tree-node.tsx), at legend size. */
function Glyph({ children }: { children: ReactNode }) {
  return (
    <svg width={22} height={22} viewBox="-11 -11 22 22" aria-hidden="true" className="shrink-0">
      {children}
    </svg>
  );
}

const ring = <circle r={9} className="fill-white stroke-plum-200" strokeWidth={1.5} />;

/**
 * What every mark on the canvas means (issue 33): a "Marks" button over the canvas opens the
 * list, in the editor and on the public page.
 */
export function MarksLegend() {
  const t = useTranslations("MarksLegend");
  const rows: [ReactNode, string][] = [
    [
      <Glyph key="heir">
        <circle r={9} className="fill-emerald-700 stroke-white" strokeWidth={1.5} />
        <path d="M-5.5,3.5V-3.5L-2.75,0L0,-4.5L2.75,0L5.5,-3.5V3.5Z" fill="#f5c518" />
      </Glyph>,
      t("heir"),
    ],
    [
      <Glyph key="married">
        {ring}
        <g fill="none" stroke="#b8860b" strokeWidth={1.6}>
          <circle cx={-2} r={3.2} />
          <circle cx={2} r={3.2} />
        </g>
      </Glyph>,
      t("married"),
    ],
    [
      <Glyph key="partner">
        {ring}
        <path d="M-5,0H5M0,-5V5" className="stroke-plum-600" strokeWidth={2} />
      </Glyph>,
      t("partner"),
    ],
    [
      <Glyph key="ex">
        {ring}
        <path
          d="M-5,0H5M0,-5V5"
          transform="rotate(45)"
          className="stroke-neutral-500"
          strokeWidth={2}
        />
      </Glyph>,
      t("exPartner"),
    ],
    [
      <Glyph key="abduction">
        {ring}
        <path
          d="M0,-6C4.5,-6 5.5,-2 4,1.5C2.8,4.2 1.2,6 0,6C-1.2,6 -2.8,4.2 -4,1.5C-5.5,-2 -4.5,-6 0,-6Z"
          fill="#5fb760"
        />
      </Glyph>,
      t("abduction"),
    ],
    [
      <Glyph key="line">
        <path
          d="M-9,6L9,-6"
          className="stroke-emerald-600"
          strokeWidth={5}
          strokeOpacity={0.75}
          strokeLinecap="round"
        />
      </Glyph>,
      t("heirLine"),
    ],
    [
      <Glyph key="found">
        <circle r={7} className="fill-amber-200/70 stroke-amber-500" strokeWidth={2.5} />
      </Glyph>,
      t("found"),
    ],
    [
      <Glyph key="others">
        <rect x={-10} y={-7} width={20} height={14} rx={7} className="fill-sky-700" />
        <text y={3.5} textAnchor="middle" className="fill-white text-[9px] font-bold">
          +1
        </text>
      </Glyph>,
      t("others"),
    ],
    [
      <Glyph key="adopted">
        <path d="M-9,0H9" className="stroke-plum-500" strokeWidth={2} strokeDasharray="4 3" />
      </Glyph>,
      t("adopted"),
    ],
  ];
  return (
    <Disclosure
      label={t("open")}
      title={t("title")}
      panelAttributes={{ "data-marks-legend": "" }}
      panelClassName="absolute top-10 left-0 z-20 w-72 rounded-lg border border-plum-100 bg-white p-3 text-sm shadow-lg"
    >
      {() => (
        <>
          <p className="mb-2 font-semibold text-plum-900">{t("title")}</p>
          <ul className="space-y-1.5">
            {rows.map(([glyph, text]) => (
              <li key={text} className="flex items-center gap-2 text-neutral-800">
                {glyph}
                <span>{text}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Disclosure>
  );
}
