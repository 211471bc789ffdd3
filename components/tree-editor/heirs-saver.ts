import { retryDelay } from "./tree-saver";

/** saved: the server has the heirs shown; saving: a PUT is out; kept: see SaveStatus's "kept". */
export type HeirsStatus = "saved" | "saving" | "kept";

export interface HeirsSaverOptions {
  /** The heirs the server has. */
  heirs: readonly string[];
  /** Heirs this device kept that the server may not have: sent at once. */
  kept?: readonly string[];
  /** PUTs the heirs; resolves with the heirs the server keeps. */
  send: (heirs: readonly string[]) => Promise<string[]>;
  isNetworkFailure: (error: unknown) => boolean;
  keep?: (heirs: readonly string[]) => void;
  release?: () => void;
  /** The server's answer, when nothing newer waits to be sent. */
  onSaved?: (heirs: string[]) => void;
  /** The server refused the heirs: these are the ones it has. */
  onRefused?: (heirs: readonly string[], error: unknown) => void;
  onStatus?: (status: HeirsStatus) => void;
  retryDelay?: (attempt: number) => number;
}

/**
 * The heir marks' saving (PUT /api/trees/{id}/heirs, the last write wins): one request at a time,
 * the newest marks sent after it; a network failure keeps the marks on the device and retries
 * them with backoff and on `online()`, as TreeSaver does for the structure.
 */
export class HeirsSaver {
  private confirmed: readonly string[];
  /** Marks not sent yet. */
  private waiting: readonly string[] | null = null;
  private inFlight = false;
  private keptMode = false;
  private suspended = false;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private current: HeirsStatus = "saved";

  constructor(private readonly options: HeirsSaverOptions) {
    this.confirmed = options.heirs;
    if (options.kept) {
      this.keptMode = true;
      this.current = "kept";
      this.waiting = options.kept;
      this.timer = setTimeout(() => {
        this.timer = null;
        this.send();
      }, 0);
    }
  }

  get status(): HeirsStatus {
    return this.current;
  }

  set(heirs: readonly string[]): void {
    this.waiting = heirs;
    if (this.keptMode) this.options.keep?.(heirs);
    this.clearTimer();
    this.send();
  }

  online(): void {
    if (!this.keptMode || this.inFlight) return;
    this.attempts = 0;
    this.clearTimer();
    this.send();
  }

  suspend(): void {
    this.suspended = true;
    this.clearTimer();
  }

  resume(): void {
    this.suspended = false;
    if (this.keptMode && this.waiting && !this.timer && !this.inFlight) this.scheduleRetry();
  }

  private send(): void {
    const heirs = this.waiting;
    if (this.inFlight || !heirs) return;
    this.waiting = null;
    this.inFlight = true;
    if (!this.keptMode) this.setStatus("saving");
    this.options.send(heirs).then(
      (saved) => {
        this.inFlight = false;
        this.confirmed = saved;
        this.attempts = 0;
        if (this.waiting) {
          this.send();
          return;
        }
        if (this.keptMode) {
          this.keptMode = false;
          this.options.release?.();
        }
        this.setStatus("saved");
        this.options.onSaved?.(saved);
      },
      (error: unknown) => {
        this.inFlight = false;
        if (this.options.isNetworkFailure(error)) {
          this.waiting ??= heirs;
          this.keptMode = true;
          this.options.keep?.(this.waiting);
          this.setStatus("kept");
          this.scheduleRetry();
          return;
        }
        if (this.waiting) {
          this.send();
          return;
        }
        if (this.keptMode) {
          this.keptMode = false;
          this.options.release?.();
        }
        this.setStatus("saved");
        this.options.onRefused?.(this.confirmed, error);
      },
    );
  }

  private scheduleRetry(): void {
    if (this.suspended) return;
    this.clearTimer();
    const wait = (this.options.retryDelay ?? retryDelay)(this.attempts);
    this.attempts += 1;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.send();
    }, wait);
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private setStatus(status: HeirsStatus): void {
    if (status === this.current) return;
    this.current = status;
    this.options.onStatus?.(status);
  }
}
