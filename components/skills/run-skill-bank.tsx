// The skill bank a run's policy was given (recorded in the run's policy options), linked to its page.
import Link from 'next/link';
import { Badge } from '../ui/badge.tsx';

/** The bank id in a run's policy options (`run.policyOptions.skillBankId`), if any. */
export function skillBankOfRun(policyOptions: unknown): string | undefined {
  if (!policyOptions || typeof policyOptions !== 'object' || Array.isArray(policyOptions)) return;
  const id = (policyOptions as { skillBankId?: unknown }).skillBankId;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

export function RunSkillBank({ policyOptions }: { policyOptions: unknown }) {
  const id = skillBankOfRun(policyOptions);
  if (!id) return null;
  return (
    <Link href={`/skills/${id}`} data-testid="run-skill-bank">
      <Badge variant="info">skill bank</Badge>
    </Link>
  );
}
