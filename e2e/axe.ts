import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** axe-core's colour-contrast violations (WCAG 2 AA) on the page, or inside `include` only. */
export async function contrastViolations(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).options({
    runOnly: { type: 'rule', values: ['color-contrast'] },
    resultTypes: ['violations'],
  });
  if (include) builder = builder.include(include);
  const result = await builder.analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.split('\n').at(-1)?.trim()}`),
  );
}
