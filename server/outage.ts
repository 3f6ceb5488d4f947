// One status line per outage of a service the process depends on (the database, the Redis queue):
// "database unavailable, retrying (…)" when the first failure is seen, "database available again
// after 3.2 s" when a call gets through. Concurrent callers failing together print one line, not
// one stack each.

/** Where status lines go: stderr by default (the CLI's progress bar and the studio's log). */
export type StatusLine = (line: string) => void;

export const stderrStatus: StatusLine = (line) => {
  process.stderr.write(`${line}\n`);
};

export class Outage {
  private since: number | undefined;

  constructor(
    readonly what: string,
    private readonly report: StatusLine = stderrStatus,
  ) {}

  /** A failure of the connection class: reported once, at the start of the outage. */
  down(reason: string): void {
    if (this.since !== undefined) return;
    this.since = Date.now();
    this.report(`${this.what} unavailable, retrying (${reason})`);
  }

  /** A call got through: ends the outage, if there was one. */
  up(): void {
    if (this.since === undefined) return;
    const seconds = ((Date.now() - this.since) / 1000).toFixed(1);
    this.since = undefined;
    this.report(`${this.what} available again after ${seconds} s`);
  }
}

/** The first line of an error's message (socket errors carry address details there). */
export function shortReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? message).slice(0, 200);
}
