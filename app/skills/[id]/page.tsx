import { SkillBankDetail } from '../../../components/skills/skill-banks.tsx';

export default async function SkillBank({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SkillBankDetail id={id} />;
}
