// The registered webshop policies: one shopper (agent.ts), three settings, each weakness named.
import type { Policy, PolicyContext, PolicyDescriptor } from '../types.ts';
import { WebshopAgent, type WebshopFlaws } from './agent.ts';

function webshopPolicy(descriptor: PolicyDescriptor, flaws: WebshopFlaws): Policy {
  return {
    descriptor,
    async start(context: PolicyContext) {
      return new WebshopAgent(context, flaws);
    },
  };
}

export const webshopCareful = webshopPolicy(
  {
    id: 'scripted:webshop-careful',
    bridge: 'webshop',
    kind: 'scripted',
    description:
      'Careful shopper: searches for the product type and the required attributes, opens results of the right type under the price cap, checks that the wanted option values exist and that the features list every attribute, chooses the options, then buys.',
    weaknesses: [
      'Reads at most three results pages, and only products whose title names the product type.',
      'Gives up when the instruction does not follow the shop’s grammar (it searches the whole request then).',
    ],
  },
  {},
);

export const webshopFirstResult = webshopPolicy(
  {
    id: 'scripted:webshop-first-result',
    bridge: 'webshop',
    kind: 'scripted',
    description:
      'Searches with the whole request and buys one of the top two results as it is (its seed picks which).',
    weaknesses: [
      'Ignores options: never chooses a size, colour or flavour.',
      'Ignores the price cap and the attributes: trusts the search ranking.',
    ],
  },
  { buysFirstResult: true },
);

export const webshopNoOptions = webshopPolicy(
  {
    id: 'scripted:webshop-no-options',
    bridge: 'webshop',
    kind: 'scripted',
    description: 'The careful shopper, except that it never chooses options on the item page.',
    weaknesses: [
      'Never selects options: every instruction that names an option value loses its option share of the reward.',
    ],
  },
  { neverSelectsOptions: true },
);

export const webshopPolicies: Policy[] = [webshopCareful, webshopFirstResult, webshopNoOptions];

export { parseGoal } from './goal.ts';
