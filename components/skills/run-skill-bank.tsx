// The skill bank a run's policy was given (recorded in the run's policy options), linked to its page.
import Link from 'next/link';
import { Badge } from '../ui/badge.tsx';

export function skillBankOfRun(rewardParams: unknown): string | undefined {
  if (!rewardParams || typeof rewardParams !== 'object' || Array.isArray(rewardParams)) return;
  const options = (rewardParams as { policyOptions?: unknown }).policyOptions;
  if (!options || typeof options !== 'object' || Array.isArray(options)) return;
  const id = (options as { skillBankId?: unknown }).skillBankId;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

export function RunSkillBank({ rewardParams }: { rewardParams: unknown }) {
  const id = skillBankOfRun(rewardParams);
  if (!id) return null;
  return (
    <Link href={`/skills/${id}`} data-testid="run-skill-bank">
      <Badge variant="info">skill bank</Badge>
    </Link>
  );
}
