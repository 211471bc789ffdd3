import type { PartnerType } from "@/lib/schemas/tree";

/** How a partnership is named on the canvas, in the node editor and in an exported image. */
export const PARTNER_TYPE_LABELS: Record<PartnerType, string> = {
  PARTNER: "Partner",
  EX_PARTNER: "Ex-Partner",
  MARRIED: "Married",
  ABDUCTION: "Alien Abduction",
};
