// Typed domain errors. Services throw these; the tRPC middleware and the CLI map them to codes,
// messages and exit statuses in one place each.

export class DomainError extends Error {
  readonly code: 'NOT_FOUND' | 'BAD_REQUEST' | 'CONFLICT' | 'FORBIDDEN' | 'UNAUTHORIZED' =
    'BAD_REQUEST';
}

export class NotFoundError extends DomainError {
  override readonly code = 'NOT_FOUND' as const;
  override name = 'NotFoundError';
}

export class InvalidSpecError extends DomainError {
  override name = 'InvalidSpecError';
}

export class InvalidInputError extends DomainError {
  override name = 'InvalidInputError';
}

/** A Stage set-up action the environment rejected: names the action and its position. */
export class StageSetupError extends DomainError {
  override name = 'StageSetupError';
  constructor(
    message: string,
    readonly actionIndex: number,
    readonly observation: string,
  ) {
    super(message);
  }
}

/** Hook code that failed to compile or run. Line/column are 1-based, in the user's code. */
export class HarnessCodeError extends DomainError {
  override name = 'HarnessCodeError';
  constructor(
    message: string,
    readonly hook?: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}
