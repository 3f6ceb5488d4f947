// Bridge lookup for commands: a NotFoundError that lists what exists.
export { requireBridge } from '../catalogue.ts';
