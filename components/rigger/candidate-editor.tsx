'use client';
// A rig candidate in the graph editor, before anyone approved it (approved candidates open on their
// harness-library version instead). Edits stay local until saved as a new harness. The decision
// block approves (filing the candidate as the designer wrote it in the task's harness library) or
// rejects it; a decided candidate shows its decision instead of the buttons.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { HarnessEditor } from '../harness-graph/editor.tsx';
import { laidOut } from '../harness-graph/layout.ts';
import { specToGraph } from '../harness-graph/model.ts';
import { PlayPanel } from '../harness-graph/play-panel.tsx';
import { SaveSpecForm } from '../harness-graph/save-spec-form.tsx';
import { DecisionPanel, useDecisionRights } from '../harnesses/decision.tsx';
import { useTRPC } from '../trpc/client.tsx';
import { BackLink } from '../ui/back-link.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { type RigCandidate, useCandidateReview } from './use-rig.ts';

/** The candidate as an editor graph; deciding on it, or saving an edited copy as a new harness. */
function useCandidateEditor(rigId: string, candidateId: string) {
  const trpc = useTRPC();
  const router = useRouter();
  const rig = useQuery(trpc.rigs.byId.queryOptions({ id: rigId }));
  const candidate = rig.data?.candidates.find((c) => c.id === candidateId);
  const initial = useMemo(
    () => (candidate ? laidOut(specToGraph(candidate.spec)) : undefined),
    [candidate],
  );
  const [name, setName] = useState('');
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.rigs.byId.queryKey({ id: rigId }) });
  const review = useCandidateReview(refresh);
  const create = useMutation(
    trpc.harnesses.create.mutationOptions({
      onSuccess: ({ harnessId }) => router.push(`/harnesses/${harnessId}`),
    }),
  );
  const n = (candidate?.iteration ?? 0) + 1;
  return {
    rig,
    candidate,
    initial,
    name,
    setName,
    review,
    create,
    saveCopy: (spec: HarnessSpec) =>
      create.mutate({
        name: name || `Edited rig candidate #${n}`,
        spec,
        versionName: 'v1',
        note: `Edited from rig ${rigId}, candidate #${n}.`,
      }),
  };
}

export function CandidateEditor({ rigId, candidateId }: { rigId: string; candidateId: string }) {
  const c = useCandidateEditor(rigId, candidateId);
  const rights = useDecisionRights();
  const { candidate, initial } = c;

  if (c.rig.error) return <ErrorNote error={c.rig.error} />;
  if (c.rig.data && !candidate)
    return <ErrorNote error={{ message: `candidate '${candidateId}' is not in this rig` }} />;
  if (!c.rig.data || !candidate || !initial) return <Skeleton className="h-[600px]" />;

  return (
    <div>
      <PageHeader
        eyebrow={<BackLink href={`/rigs/${rigId}`}>Rig {rigId.slice(-8)}</BackLink>}
        title={`Candidate #${candidate.iteration + 1}${candidate.round > 0 ? ` (round ${candidate.round + 1})` : ''}`}
        description={<span>{candidate.rationale}</span>}
        actions={candidate.library ? <LibraryLink library={candidate.library} /> : null}
      />
      <ErrorNote error={c.create.error} />
      {candidate.writeError ? null : (
        <Card className="mb-4" data-testid="candidate-decision-card">
          <CardHeader>
            <CardTitle>Decision</CardTitle>
          </CardHeader>
          <CardContent>
            <DecisionPanel
              key={candidate.gate.current?.id ?? 'pending'}
              gate={candidate.gate}
              rights={rights}
              actions={c.review.actionsFor(candidateId)}
              approveLabel="Approve to the library"
            />
          </CardContent>
        </Card>
      )}
      <HarnessEditor
        initial={initial}
        actions={({ spec }) => (
          <SaveSpecForm
            spec={spec}
            name={c.name}
            onName={c.setName}
            onSave={c.saveCopy}
            pending={c.create.isPending}
            nameTestId="harness-name"
            saveTestId="create-harness"
            inputClassName="h-8 w-56"
            placeholder="Save an edited copy as…"
          >
            Save as harness
          </SaveSpecForm>
        )}
        below={({ spec }) => <PlayPanel spec={spec.ok ? spec.spec : undefined} />}
      />
    </div>
  );
}

/** Where an approved candidate went in the harness library. */
function LibraryLink({ library: lib }: { library: NonNullable<RigCandidate['library']> }) {
  return (
    <Button asChild variant="outline">
      <Link href={`/harnesses/${lib.harnessId}?version=${lib.version}`} data-testid="library-link">
        In the harness library (v{lib.version})
      </Link>
    </Button>
  );
}
