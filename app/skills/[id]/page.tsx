import { SkillBankDetail } from '../../../components/skills/skill-banks.tsx';
import { requireFound } from '../../../components/trpc/server.ts';

export default async function SkillBank({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await requireFound((api) => api.skills.bank.query({ id }));
  return <SkillBankDetail id={id} />;
}
