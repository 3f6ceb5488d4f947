'use client';
// Pick a skill bank for a run (EvoHarness experience): the run stores the bank id; a bpe(...) policy
// gets the whole bank as its experience store, any other policy the skills retrieved for its task.
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc/client.tsx';
import { Label, Select } from '../ui/input.tsx';
import { countOf } from '../ui/plural.ts';

export function SkillBankSelect({
  bridge,
  value,
  onChange,
}: {
  bridge: string;
  value: string;
  onChange: (bankId: string) => void;
}) {
  const trpc = useTRPC();
  const banks = useQuery(trpc.skills.banks.queryOptions());
  const usable = (banks.data ?? []).filter((b) => b.bridge === null || b.bridge === bridge);
  if (usable.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor="l-skill-bank">Skill bank</Label>
      <Select
        id="l-skill-bank"
        data-testid="launch-skill-bank"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">none</option>
        {usable.map((b) => (
          <option key={b.id} value={b.id}>
            {b.name} ({countOf(b.skills, 'skill')})
          </option>
        ))}
      </Select>
    </div>
  );
}
