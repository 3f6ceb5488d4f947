// The house's dependency rules (DESIGN.md), checked by dependency-cruiser in architecture.test.ts:
//   app, components ──contracts + AppRouter type──▶ server ──▶ bridges
// with a pure engine (server/harness) and a contracts module that depends on nothing of ours but
// the environment contract's types.
import type { IForbiddenRuleType } from 'dependency-cruiser';

const TESTS = '(\\.test\\.ts|\\.spec\\.ts|/testing/|\\.fixture\\.ts)';

export const RULES: IForbiddenRuleType[] = [
  {
    name: 'no-circular',
    comment: 'Modules form no import circle (an `await import()` does not hide one either).',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
  {
    name: 'bridges-stand-alone',
    comment: 'bridges/ knows nothing of the server, the studio or the contracts.',
    severity: 'error',
    from: { path: '^bridges/' },
    to: { path: '^(server|app|components|contracts)/' },
  },
  {
    name: 'engine-pure',
    comment:
      'The harness engine gets a bridge resolver: no registry, configuration, database, rollouts or API.',
    severity: 'error',
    from: { path: '^server/harness/', pathNot: TESTS },
    to: {
      path: '^(server/(db|rollouts|api|auth|rigger|skills|cli|compose|config|bridges|catalogue)|bridges/index\\.ts)',
    },
  },
  {
    name: 'client-through-contracts',
    comment:
      'components/ and app/ use the contracts and the AppRouter type, never a server module itself.',
    severity: 'error',
    from: { path: '^(components|app)/' },
    to: { path: '^(server|bridges)/', pathNot: '^server/api/root\\.ts$' },
  },
  {
    name: 'client-app-router-type-only',
    comment: 'The app router is imported for its type only.',
    severity: 'error',
    from: { path: '^(components|app)/' },
    to: { path: '^server/api/root\\.ts$', dependencyTypesNot: ['type-only'] },
  },
  {
    name: 'contracts-pure',
    comment: 'The contracts import zod and the environment contract (bridges/core) only.',
    severity: 'error',
    from: { path: '^contracts/' },
    to: { path: '^(server|app|components)/|^bridges/(?!core/)' },
  },
];
