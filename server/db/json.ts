// JSON columns are parsed with their schema (contracts/) when they are read: what the database
// hands back is checked, never cast. A row that does not match is a corrupt row, said as such.

import type { z } from 'zod';
import { firstIssue } from '../../contracts/issues.ts';
import { InfraError } from '../errors.ts';

export class CorruptRowError extends InfraError {
  override name = 'CorruptRowError';
}

export function parseColumn<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new CorruptRowError(
    `${where}: stored JSON does not match its schema at ${firstIssue(parsed.error)}`,
  );
}

/** A nullable JSON column: null stays null. */
export function parseOptionalColumn<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: string,
): z.output<S> | null {
  return value === null || value === undefined ? null : parseColumn(schema, value, where);
}
