// Spec parsing for the server: contracts/spec.ts's checks, as an InvalidSpecError.
import { checkSpec, type HarnessSpec, nodePaths } from '../../contracts/spec.ts';
import { InvalidSpecError } from '../errors.ts';

/** Validates a spec; throws InvalidSpecError with one line "path: problem". */
export function parseSpec(input: unknown): HarnessSpec {
  const checked = checkSpec(input);
  if (!checked.ok) throw new InvalidSpecError(checked.message);
  return checked.spec;
}

/** `household:<taskId>` -> the bare environment as a spec. */
export function specFromShorthand(shorthand: string): HarnessSpec {
  const at = shorthand.indexOf(':');
  const bridge = at > 0 ? shorthand.slice(0, at).trim() : '';
  const task = at > 0 ? shorthand.slice(at + 1).trim() : '';
  if (!bridge || !task) {
    throw new InvalidSpecError(
      `invalid spec shorthand "${shorthand}": expected "<bridge>:<task id>", e.g. "toy24:1-2-3-4"`,
    );
  }
  return parseSpec({ version: 1, env: { type: 'base', bridge, task } });
}

export { nodePaths };
