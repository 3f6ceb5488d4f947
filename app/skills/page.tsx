import { SkillBankList } from '../../components/skills/skill-banks.tsx';

export default function Skills() {
  return <SkillBankList />;
}
