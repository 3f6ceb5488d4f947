import { type Problem, sentence } from './problems.ts';

/** The problems of one field, right under it: one sentence each. */
export function FieldProblems({ problems, testId }: { problems: Problem[]; testId?: string }) {
  if (problems.length === 0) return null;
  return (
    <div className="flex flex-col gap-0.5" data-testid={testId}>
      {problems.map((p) => (
        <p key={`${p.path}:${p.message}`} role="alert" className="text-xs text-danger">
          {sentence(p)}
        </p>
      ))}
    </div>
  );
}
