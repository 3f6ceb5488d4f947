// The product's one error taxonomy. Every error thrown on purpose is a KindedError whose `kind`
// says whose fault it is and how callers treat it (tRPC code, CLI exit status, episode outcome).
// Code classifies errors with `instanceof` or `kind`, never by comparing class-name strings.

export const ERROR_KINDS = [
  /** The environment's or policy's runtime failed (server down, browser crash, worker died): not a task failure. */
  'infra',
  /** The harness failed: hook code that throws or loops, a set-up action the environment rejects. */
  'harness',
  /** The policy itself failed (bad reply, crash): recorded apart from task failures. */
  'policy',
  /** A command line used wrongly. */
  'usage',
  /** A request or document that does not hold (bad spec, bad input). */
  'invalid',
  'not_found',
  'conflict',
  'forbidden',
  'unauthorized',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export abstract class KindedError extends Error {
  abstract readonly kind: ErrorKind;
}

/** The kind of a thrown value, or undefined for an unexpected error (a bug). */
export function kindOf(error: unknown): ErrorKind | undefined {
  return error instanceof KindedError ? error.kind : undefined;
}

export class UnknownTaskError extends KindedError {
  readonly kind = 'not_found';
  constructor(
    readonly bridge: string,
    readonly taskId: string,
  ) {
    super(`unknown task '${taskId}' for bridge '${bridge}'`);
    this.name = 'UnknownTaskError';
  }
}

export class EnvClosedError extends KindedError {
  readonly kind = 'infra';
  constructor(envType: string) {
    super(`${envType} environment is closed`);
    this.name = 'EnvClosedError';
  }
}

/** An error of the environment's runtime (browser crash, remote server down): an infra error, not a failure. */
export class EnvInfraError extends KindedError {
  readonly kind = 'infra';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EnvInfraError';
  }
}
