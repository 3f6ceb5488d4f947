// Bridge lookup for commands: a NotFoundError that lists what exists.

import type { Bridge } from '../../bridges/core/types.ts';
import '../bridges.ts';
import { bridgeNames, getBridge } from '../../bridges/index.ts';
import { NotFoundError } from '../errors.ts';

export async function requireBridge(name: string): Promise<Bridge> {
  const bridge = await getBridge(name);
  if (!bridge)
    throw new NotFoundError(
      `unknown bridge '${name}' (known: ${bridgeNames().join(', ') || 'none'})`,
    );
  return bridge;
}
