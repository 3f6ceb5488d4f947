import { Suspense } from 'react';
import { CostReward } from '../../../../../components/bpe/cost-reward.tsx';
import { TrajectoryViewer } from '../../../../../components/trajectory/trajectory-viewer.tsx';
import { requireFound } from '../../../../../components/trpc/server.ts';

export default async function EpisodePage({
  params,
}: {
  params: Promise<{ id: string; episodeId: string }>;
}) {
  const { id, episodeId } = await params;
  // The episode must exist and belong to the run the URL names.
  await requireFound(
    async (api) => (await api.runs.episode.query({ id: episodeId })).episode.runId === id,
  );
  return (
    <Suspense>
      <TrajectoryViewer runId={id} episodeId={episodeId} />
      <CostReward runId={id} episodeId={episodeId} />
    </Suspense>
  );
}
