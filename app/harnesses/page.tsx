import { HarnessList } from '../../components/harnesses/harness-list.tsx';

export default function HarnessesPage() {
  return <HarnessList />;
}
