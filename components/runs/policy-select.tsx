// The policy picker of the launch forms (runs and rigs): usable policies by id, scripted ones
// labelled as such.
import { Select } from '../ui/input.tsx';

export function PolicySelect({
  id,
  testId,
  value,
  policies,
  onChange,
}: {
  id: string;
  testId: string;
  value: string;
  policies: { id: string; kind: string }[];
  onChange: (policy: string) => void;
}) {
  return (
    <Select id={id} data-testid={testId} value={value} onChange={(e) => onChange(e.target.value)}>
      {policies.map((p) => (
        <option key={p.id} value={p.id}>
          {p.id}
          {p.kind === 'scripted' ? ' (scripted)' : ''}
        </option>
      ))}
    </Select>
  );
}
