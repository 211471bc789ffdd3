"use client";
import { useCallback, useMemo, useRef, useState, type RefObject } from "react";

/** A Sim picked in the Find field: to centre and open, or as the second Sim of a relation. */
export interface FindRequest {
  personId: string;
  /** Set when the pick answers "How are they related?" for this Sim. */
  relateFrom: string | null;
  /** Grows with each pick, so picking the same Sim twice centres it again. */
  nonce: number;
}

/** What the Find field and the canvas share: the last pick and the relation being asked. */
export interface FindController {
  /** The canvas's workspace listens to the picks; answers the function that stops it. */
  listen: (handler: (request: FindRequest) => void) => () => void;
  /** The Sim whose relation to the next pick is asked, or null. */
  relateFrom: string | null;
  inputRef: RefObject<HTMLInputElement | null>;
  pick: (personId: string) => void;
  startRelate: (personId: string) => void;
  cancelRelate: () => void;
}

export function useFindController(): FindController {
  const inputRef = useRef<HTMLInputElement | null>(null);
  const [relateFrom, setRelateFrom] = useState<string | null>(null);
  const onPickRef = useRef<((request: FindRequest) => void) | null>(null);
  const nonce = useRef(0);
  const listen = useCallback((handler: (request: FindRequest) => void) => {
    onPickRef.current = handler;
    return () => {
      if (onPickRef.current === handler) onPickRef.current = null;
    };
  }, []);
  const pick = useCallback(
    (personId: string) => {
      nonce.current += 1;
      onPickRef.current?.({ personId, relateFrom, nonce: nonce.current });
      setRelateFrom(null);
    },
    [relateFrom],
  );
  const startRelate = useCallback((personId: string) => {
    setRelateFrom(personId);
    requestAnimationFrame(() => inputRef.current?.focus());
  }, []);
  const cancelRelate = useCallback(() => setRelateFrom(null), []);
  return useMemo(
    () => ({ listen, relateFrom, inputRef, pick, startRelate, cancelRelate }),
    [listen, relateFrom, pick, startRelate, cancelRelate],
  );
}
