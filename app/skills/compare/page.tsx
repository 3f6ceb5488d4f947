import { Suspense } from 'react';
import { SkillComparisonPage } from '../../../components/skills/skill-comparison.tsx';

export default function CompareSkills() {
  return (
    <Suspense>
      <SkillComparisonPage />
    </Suspense>
  );
}
