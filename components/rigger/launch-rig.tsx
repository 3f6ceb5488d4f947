'use client';
// Launch EnvRigger from a task page: policy, designer, K, iterations and the user's constraints;
// below it, the task's harness library (where approved rig candidates land) and its rigs.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Wand2 } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Button } from '../ui/button.tsx';
import { Input, Label, Select, Textarea } from '../ui/input.tsx';
import { ErrorNote } from '../ui/misc.tsx';

export function LaunchRig({ bridge, task }: { bridge: string; task: string }) {
  return (
    <div className="flex flex-col gap-4">
      <LaunchForm bridge={bridge} task={task} />
      <TaskLibrary bridge={bridge} task={task} />
    </div>
  );
}

function LaunchForm({ bridge, task }: { bridge: string; task: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const policies = useQuery(trpc.policies.list.queryOptions({ bridge }));
  const usable = (policies.data ?? []).filter((p) => p.kind !== 'human');
  const [policy, setPolicy] = useState('');
  const [designer, setDesigner] = useState<'heuristic' | 'llm'>('heuristic');
  const [k, setK] = useState(5);
  const [iterations, setIterations] = useState(5);
  const [lo, setLo] = useState(0.4);
  const [hi, setHi] = useState(0.6);
  const [defect, setDefect] = useState('');
  const chosen = policy || usable[0]?.id || '';
  const launch = useMutation(
    trpc.rigs.launch.mutationOptions({ onSuccess: ({ rigId }) => router.push(`/rigs/${rigId}`) }),
  );
  return (
    <form
      className="flex flex-col gap-3"
      data-testid="launch-rig"
      onSubmit={(e) => {
        e.preventDefault();
        launch.mutate({
          task: `${bridge}:${task}`,
          policy: chosen,
          designer,
          k,
          maxIterations: iterations,
          band: [lo, hi],
          ...(defect.trim() ? { defect: defect.trim() } : {}),
        });
      }}
    >
      <div className="grid grid-cols-2 gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="r-policy">Policy</Label>
          <Select
            id="r-policy"
            data-testid="rig-policy"
            value={chosen}
            onChange={(e) => setPolicy(e.target.value)}
          >
            {usable.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="r-designer">Designer</Label>
          <Select
            id="r-designer"
            data-testid="rig-designer"
            value={designer}
            onChange={(e) => setDesigner(e.target.value === 'llm' ? 'llm' : 'heuristic')}
          >
            <option value="heuristic">heuristic (offline)</option>
            <option value="llm">llm (OpenAI-compatible)</option>
          </Select>
        </div>
      </div>
      <div className="grid grid-cols-4 gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor="r-k">Rollouts (K)</Label>
          <Input
            id="r-k"
            type="number"
            min={1}
            max={100}
            value={k}
            onChange={(e) => setK(Number(e.target.value))}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="r-it">Iterations</Label>
          <Input
            id="r-it"
            type="number"
            min={1}
            max={50}
            value={iterations}
            onChange={(e) => setIterations(Number(e.target.value))}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="r-lo">Band low</Label>
          <Input
            id="r-lo"
            type="number"
            step={0.05}
            min={0}
            max={1}
            value={lo}
            onChange={(e) => setLo(Number(e.target.value))}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="r-hi">Band high</Label>
          <Input
            id="r-hi"
            type="number"
            step={0.05}
            min={0}
            max={1}
            value={hi}
            onChange={(e) => setHi(Number(e.target.value))}
          />
        </div>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor="r-defect">Defect to target (optional)</Label>
        <Textarea
          id="r-defect"
          rows={2}
          placeholder="e.g. the policy never opens drawers"
          value={defect}
          onChange={(e) => setDefect(e.target.value)}
        />
      </div>
      <ErrorNote error={launch.error} />
      <Button type="submit" data-testid="rig-launch" disabled={!chosen || launch.isPending}>
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
            <span className="text-xs text-muted-foreground">{h._count.versions} versions</span>
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
