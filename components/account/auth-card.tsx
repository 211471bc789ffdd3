import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";

/** The narrow, centred card the login and recovery forms sit on. */
export function AuthCard({
  title,
  intro,
  children,
  footer,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-md py-4 sm:py-10">
      <Card>
        <h1 className="text-plum-900 text-2xl font-bold">{title}</h1>
        {intro && <div className="mt-2 text-neutral-700">{intro}</div>}
        <div className="mt-6">{children}</div>
      </Card>
      {footer && (
        <div className="mt-4 space-y-2 text-center text-sm text-neutral-700">{footer}</div>
      )}
    </div>
  );
}
