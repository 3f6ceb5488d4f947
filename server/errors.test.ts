import { describe, expect, it } from 'vitest';
import {
  EnvInfraError,
  fromWireError,
  HarnessCodeError,
  InvalidSpecError,
  KindedError,
  kindOf,
  NotFoundError,
  StageSetupError,
  toWireError,
  UnknownTaskError,
} from './errors.ts';
import { PolicyInfraError } from './policies/types.ts';

describe('error taxonomy', () => {
  it('gives every product error a kind, and none to an unexpected one', () => {
    expect(kindOf(new NotFoundError('x'))).toBe('not_found');
    expect(kindOf(new UnknownTaskError('toy24', 'nope'))).toBe('not_found');
    expect(kindOf(new InvalidSpecError('x'))).toBe('invalid');
    expect(kindOf(new HarnessCodeError('x', 'filterAction', 3))).toBe('harness');
    expect(kindOf(new StageSetupError('x', 1, 'Nothing happens.'))).toBe('harness');
    expect(kindOf(new EnvInfraError('down'))).toBe('infra');
    expect(kindOf(new PolicyInfraError('429'))).toBe('infra');
    expect(kindOf(new TypeError('bug'))).toBeUndefined();
    expect(kindOf('a string')).toBeUndefined();
  });

  it('keeps kind, class and detail across a thread boundary', () => {
    const hook = fromWireError(toWireError(new HarnessCodeError('boom', 'filterAction', 4, 2)));
    expect(hook).toBeInstanceOf(HarnessCodeError);
    expect(hook).toMatchObject({ message: 'boom', hook: 'filterAction', line: 4, column: 2 });

    const stage = fromWireError(
      toWireError(new StageSetupError('rejected', 2, 'Nothing happens.')),
    );
    expect(stage).toBeInstanceOf(StageSetupError);
    expect(stage).toMatchObject({ actionIndex: 2, observation: 'Nothing happens.' });

    const infra = fromWireError(toWireError(new EnvInfraError('browser crashed')));
    expect(infra).toBeInstanceOf(KindedError);
    expect(kindOf(infra)).toBe('infra');
    expect(infra.name).toBe('EnvInfraError');

    const bug = fromWireError(toWireError(new RangeError('oops')));
    expect(kindOf(bug)).toBeUndefined();
    expect(bug.name).toBe('RangeError');
  });
});
