'use client';
// A rig candidate in the graph editor, before anyone approved it (approved candidates open on their
// harness-library version instead). Edits stay local until saved as a new harness; approving files
// the candidate as the designer wrote it in the task's harness library.
import { useMutation, useQuery } from '@tanstack/react-query';
import { CheckCircle2, Save } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { HarnessEditor } from '../harness-graph/editor.tsx';
import { laidOut } from '../harness-graph/layout.ts';
import { specToGraph } from '../harness-graph/model.ts';
import { PlayPanel } from '../harness-graph/play-panel.tsx';
import { useTRPC } from '../trpc/client.tsx';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';
import { ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';

export function CandidateEditor({ rigId, candidateId }: { rigId: string; candidateId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const rig = useQuery(trpc.rigs.byId.queryOptions({ id: rigId }));
  const candidate = rig.data?.candidates.find((c) => c.id === candidateId);
  const initial = useMemo(
    () => (candidate ? laidOut(specToGraph(candidate.spec)) : undefined),
    [candidate],
  );
  const [name, setName] = useState('');
  const approve = useMutation(
    trpc.rigs.review.mutationOptions({
      onSuccess: (r) => {
        if (r.harnessId) router.push(`/harnesses/${r.harnessId}`);
      },
    }),
  );
  const create = useMutation(
    trpc.harnesses.create.mutationOptions({
      onSuccess: ({ harnessId }) => router.push(`/harnesses/${harnessId}`),
    }),
  );

  if (rig.error) return <ErrorNote error={rig.error} />;
  if (rig.data && !candidate)
    return <ErrorNote error={{ message: `candidate '${candidateId}' is not in this rig` }} />;
  if (!rig.data || !candidate || !initial) return <Skeleton className="h-[600px]" />;
  const lib = candidate.library;

  return (
    <div>
      <PageHeader
        eyebrow={
          <Link href={`/rigs/${rigId}`} className="hover:underline">
            ← Rig {rigId.slice(-8)}
          </Link>
        }
        title={`Candidate #${candidate.iteration + 1}${candidate.round > 0 ? ` (round ${candidate.round + 1})` : ''}`}
        description={<span>{candidate.rationale}</span>}
        actions={
          lib ? (
            <Button asChild variant="outline">
              <Link
                href={`/harnesses/${lib.harnessId}?version=${lib.version}`}
                data-testid="library-link"
              >
                In the harness library (v{lib.version})
              </Link>
            </Button>
          ) : !candidate.writeError ? (
            <Button
              variant="success"
              data-testid="approve-to-library"
              disabled={approve.isPending}
              onClick={() => approve.mutate({ candidateId, decision: 'approve' })}
            >
              <CheckCircle2 /> Approve to the library
            </Button>
          ) : null
        }
      />
      <ErrorNote error={approve.error ?? create.error} />
      <HarnessEditor
        initial={initial}
        actions={({ spec }) => (
          <form
            className="flex items-center gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (spec.ok)
                create.mutate({
                  name: name || `Edited rig candidate #${candidate.iteration + 1}`,
                  spec: spec.spec,
                  versionName: 'v1',
                  note: `Edited from rig ${rigId}, candidate #${candidate.iteration + 1}.`,
                });
            }}
          >
            <Input
              data-testid="harness-name"
              className="h-8 w-56"
              placeholder="Save an edited copy as…"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
            <Button
              type="submit"
              size="sm"
              data-testid="create-harness"
              disabled={!spec.ok || create.isPending}
            >
              <Save /> Save as harness
            </Button>
          </form>
        )}
        below={({ spec }) => <PlayPanel spec={spec.ok ? spec.spec : undefined} />}
      />
    </div>
  );
}
