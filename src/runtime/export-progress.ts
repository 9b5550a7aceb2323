// The audit export's progress, between the export actor (which reports what it has read) and AuditAccesses
// (which shows it). A plain store, no effect: the screen makes one and hands it to the export machine.

/** How far the export has read: bytes and csv lines (the header is one of them). */
export interface ExportProgress {
  bytes: number;
  lines: number;
}

/** The progress of the export running, read by the screen with useSyncExternalStore. */
export class ExportProgressStore {
  private value: ExportProgress = { bytes: 0, lines: 0 };
  private listeners = new Set<() => void>();
  private last = 0;
  readonly get = () => this.value;
  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  /** At most one repaint every 100 ms: a 20 MB file arrives in hundreds of chunks. */
  report(value: ExportProgress, force = false) {
    const at = performance.now();
    if (!force && at - this.last < 100) return;
    this.last = at;
    this.value = value;
    for (const listener of this.listeners) listener();
  }
}
