// Runs the dependency rules over a tree (the repository, or a fixture tree in the tests).
import { cruise, type IViolation } from 'dependency-cruiser';
import { RULES } from './rules.ts';

export const SOURCE_ROOTS = [
  'bridges',
  'contracts',
  'server',
  'components',
  'app',
  'bin',
  'bench',
  'architecture/check.ts',
];

export async function violations(
  baseDir: string,
  roots: string[],
  o: { tsConfig?: string } = {},
): Promise<IViolation[]> {
  const result = await cruise(
    roots,
    {
      baseDir,
      validate: true,
      ruleSet: { forbidden: RULES },
      tsPreCompilationDeps: true,
      doNotFollow: { path: 'node_modules' },
      exclude: { path: '(^|/)(node_modules|generated)/' },
      ...(o.tsConfig ? { tsConfig: { fileName: o.tsConfig } } : {}),
    },
    undefined,
    undefined,
  );
  if (typeof result.output === 'string') throw new Error(result.output);
  return result.output.summary.violations;
}

export function describeViolation(v: IViolation): string {
  const via = v.cycle?.length ? ` (circle: ${v.cycle.map((c) => c.name).join(' → ')})` : '';
  return `${v.rule.name}: ${v.from} → ${v.to}${via}`;
}
