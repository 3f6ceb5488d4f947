// The contracts module: the one place a shape that crosses a boundary is declared — zod schemas and
// the types inferred from them, shared by the server, the studio and the CLI. It imports nothing
// but zod and the environment contract's types (bridges/core), so the client bundle can use it.
export * from './issues.ts';
export * from './json.ts';
export * from './launch.ts';
export * from './llm.ts';
export * from './outcomes.ts';
export * from './reward.ts';
export * from './rigs.ts';
export * from './roles.ts';
export * from './run-list.ts';
export * from './runs.ts';
export * from './serving.ts';
export * from './skills.ts';
export * from './spec.ts';
export * from './steps.ts';
export * from './validation.ts';
