// Scripted policies for the `remote` bridge's reference server (the 24 game over HTTP). Its
// observations and `combine` tool mirror toy24's, so these are the toy24 players under remote ids:
// the same agent on two runtimes is what shows the remote bridge changes nothing for the policy.
import { toy24Exact, toy24Greedy } from '../toy24/policies.ts';
import type { Policy, PolicyDescriptor } from '../types.ts';

function onRemote(inner: Policy, descriptor: PolicyDescriptor): Policy {
  return { descriptor, start: (context) => inner.start(context) };
}

export const remoteExact = onRemote(toy24Exact, {
  ...toy24Exact.descriptor,
  id: 'scripted:remote-exact',
  bridge: 'remote',
  description: `Reference server (24 game over HTTP): ${toy24Exact.descriptor.description}`,
});

export const remoteGreedy = onRemote(toy24Greedy, {
  ...toy24Greedy.descriptor,
  id: 'scripted:remote-greedy',
  bridge: 'remote',
  description: `Reference server (24 game over HTTP): ${toy24Greedy.descriptor.description}`,
});

export const remotePolicies: Policy[] = [remoteExact, remoteGreedy];
