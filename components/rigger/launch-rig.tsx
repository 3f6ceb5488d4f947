'use client';
// Launch EnvRigger from a task page: policy, designer, K, iterations and the user's constraints;
// below it, the task's harness library (where approved rig candidates land) and its rigs.
import { useQuery } from '@tanstack/react-query';
import { Wand2 } from 'lucide-react';
import Link from 'next/link';
import { COMPONENTS, type ComponentName, isPaperMode } from '../../contracts/rigs.ts';
import { numberRange, rangeHint } from '../runs/launch.ts';
import { PolicySelect } from '../runs/policy-select.tsx';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Field, NumberField } from '../ui/field.tsx';
import { FieldProblems } from '../ui/field-problems.tsx';
import { Select, Textarea } from '../ui/input.tsx';
import { ErrorNote } from '../ui/misc.tsx';
import { countOf } from '../ui/plural.ts';
import { otherProblems, type Problem, problemsAt } from '../ui/problems.ts';
import { designerNote, RIG_FIELD_RANGE } from './model.ts';
import { useRigLaunch } from './use-rig-launch.ts';

/** Fields that show their own problems; the rest go to the note above the button. */
const FIELD_PATHS = ['policy', 'components', 'k', 'maxIterations', 'band', 'defect'] as const;

const COMPONENT_LABEL: Record<ComponentName, string> = {
  stage: 'Stage (set-up actions)',
  contract: 'Contract (rules)',
  chain: 'Chain (a second task) — beyond the paper',
};

/** What the designer may write: the paper's Stage and Contract by default, Chain on opt-in. */
function ComponentsField({
  value,
  onChange,
  problems,
}: {
  value: ComponentName[];
  onChange: (components: ComponentName[]) => void;
  problems: Problem[];
}) {
  return (
    <fieldset className="flex flex-col gap-1" data-testid="rig-components-field">
      <legend className="text-sm font-medium">Components the designer may write</legend>
      <div className="flex flex-wrap gap-3 text-sm">
        {COMPONENTS.map((c) => (
          <label key={c} className="flex items-center gap-1.5">
            <input
              type="checkbox"
              data-testid={`rig-component-${c}`}
              checked={value.includes(c)}
              onChange={(e) =>
                onChange(
                  e.target.checked
                    ? COMPONENTS.filter((x) => x === c || value.includes(x))
                    : value.filter((x) => x !== c),
                )
              }
            />
            {COMPONENT_LABEL[c]}
          </label>
        ))}
      </div>
      <p className="text-xs text-muted-foreground">
        {isPaperMode(value)
          ? 'Paper mode: the paper’s automated pipeline writes Stage and Contract only.'
          : 'Chain is on: candidates may append a second task, beyond the paper’s pipeline.'}
      </p>
      <FieldProblems problems={problems} />
    </fieldset>
  );
}

export function LaunchRig({ bridge, task }: { bridge: string; task: string }) {
  return (
    <div className="flex flex-col gap-4">
      <LaunchForm bridge={bridge} task={task} />
      <TaskLibrary bridge={bridge} task={task} />
    </div>
  );
}

function LaunchForm({ bridge, task }: { bridge: string; task: string }) {
  const l = useRigLaunch(bridge, task);
  return (
    <form
      className="flex flex-col gap-3"
      data-testid="launch-rig"
      // The schema checks every field inline; the browser's own tooltips would disagree with it.
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        l.submit();
      }}
    >
      <div className="grid grid-cols-2 gap-2">
        <Field label="Policy" htmlFor="r-policy">
          <PolicySelect
            id="r-policy"
            testId="rig-policy"
            value={l.chosen}
            policies={l.usable}
            onChange={(policy) => l.set('policy', policy)}
          />
          <FieldProblems problems={problemsAt(l.problems, 'policy')} />
        </Field>
        <Field label="Designer" htmlFor="r-designer">
          <Select
            id="r-designer"
            data-testid="rig-designer"
            value={l.form.designer}
            onChange={(e) => {
              const v = e.target.value;
              l.set('designer', v === 'llm' || v === 'heuristic' ? v : '');
            }}
          >
            <option value="">default (by policy)</option>
            <option value="heuristic">heuristic (offline)</option>
            <option value="llm">llm (OpenAI-compatible)</option>
          </Select>
          <p className="text-xs text-muted-foreground" data-testid="rig-designer-note">
            {designerNote(l.chosen, l.form.designer)}
          </p>
        </Field>
      </div>
      <ComponentsField
        value={l.form.components}
        onChange={(components) => l.set('components', components)}
        problems={problemsAt(l.problems, 'components')}
      />
      <RigSizeFields l={l} />
      <Field label="Defect to target (optional)" htmlFor="r-defect">
        <Textarea
          id="r-defect"
          rows={2}
          placeholder="e.g. the policy never opens drawers"
          value={l.form.defect}
          onChange={(e) => l.set('defect', e.target.value)}
        />
        <FieldProblems problems={problemsAt(l.problems, 'defect')} />
      </Field>
      <ErrorNote problems={otherProblems(l.problems, FIELD_PATHS)} testId="rig-error" />
      {l.blocked ? (
        <p className="text-xs text-muted-foreground" data-testid="rig-blocked">
          {l.blocked}
        </p>
      ) : null}
      <Button
        type="submit"
        data-testid="rig-launch"
        disabled={!l.chosen || !l.valid || l.launch.isPending || l.blocked !== undefined}
        title={l.blocked}
      >
        <Wand2 className="size-4" /> Rig this task
      </Button>
    </form>
  );
}

/** The task's harness library: harnesses filed under this task, approved rig candidates among them. */
function TaskLibrary({ bridge, task }: { bridge: string; task: string }) {
  const trpc = useTRPC();
  const harnesses = useQuery(trpc.harnesses.list.queryOptions({ bridge, task }));
  const rigs = useQuery(trpc.rigs.list.queryOptions({ bridge, taskId: task }));
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="task-harnesses">
      <div className="font-medium">Harness library for this task</div>
      {harnesses.data?.length === 0 ? (
        <p className="text-xs text-muted-foreground">
          None yet: approve a rig candidate or create one in the editor.
        </p>
      ) : null}
      <ul className="flex flex-col gap-1">
        {(harnesses.data ?? []).map((h) => (
          <li key={h.id} className="flex items-center gap-2" data-testid="task-harness">
            <Link href={`/harnesses/${h.id}`} className="text-primary hover:underline">
              {h.name}
            </Link>
            <Badge variant={h.status === 'approved' ? 'success' : 'outline'}>{h.status}</Badge>
            <span className="text-xs text-muted-foreground">
              {countOf(h._count.versions, 'version')}
            </span>
          </li>
        ))}
      </ul>
      {rigs.data && rigs.data.length > 0 ? (
        <div className="text-xs text-muted-foreground">
          Rigs:{' '}
          {rigs.data.slice(0, 8).map((r, i) => (
            <span key={r.id}>
              {i > 0 ? ' · ' : ''}
              <Link href={`/rigs/${r.id}`} className="font-mono text-primary hover:underline">
                {r.id.slice(-6)}
              </Link>{' '}
              ({r.status})
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}

function RigSizeFields({ l }: { l: ReturnType<typeof useRigLaunch> }) {
  const k = numberRange(RIG_FIELD_RANGE.k);
  const iterations = numberRange(RIG_FIELD_RANGE.maxIterations);
  // The band is one value [low, high]: its problems (low above high) show under both edges.
  const band = problemsAt(l.problems, 'band');
  return (
    <div className="flex flex-col gap-1">
      <div className="grid grid-cols-4 gap-2">
        <NumberField
          id="r-k"
          testId="rig-k"
          label="Rollouts (K)"
          {...k}
          hint={rangeHint(k)}
          problems={problemsAt(l.problems, 'k')}
          value={l.form.k}
          onChange={(v) => l.set('k', v)}
        />
        <NumberField
          id="r-it"
          testId="rig-iterations"
          label="Iterations"
          {...iterations}
          hint={rangeHint(iterations)}
          problems={problemsAt(l.problems, 'maxIterations')}
          value={l.form.iterations}
          onChange={(v) => l.set('iterations', v)}
        />
        <NumberField
          id="r-lo"
          testId="rig-band-low"
          label="Band low"
          step={0.05}
          min={0}
          max={1}
          hint="0 … 1"
          problems={band.filter((p) => p.path !== 'band.1')}
          value={l.form.lo}
          onChange={(v) => l.set('lo', v)}
        />
        <NumberField
          id="r-hi"
          testId="rig-band-high"
          label="Band high"
          step={0.05}
          min={0}
          max={1}
          hint="0 … 1"
          problems={band.filter((p) => p.path === 'band.1')}
          value={l.form.hi}
          onChange={(v) => l.set('hi', v)}
        />
      </div>
    </div>
  );
}
