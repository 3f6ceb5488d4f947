import { Suspense } from 'react';
import { CostReward } from '../../../../../components/bpe/cost-reward.tsx';
import { TrajectoryViewer } from '../../../../../components/trajectory/trajectory-viewer.tsx';

export default async function EpisodePage({
  params,
}: {
  params: Promise<{ id: string; episodeId: string }>;
}) {
  const { id, episodeId } = await params;
  return (
    <Suspense>
      <TrajectoryViewer runId={id} episodeId={episodeId} />
      <CostReward runId={id} episodeId={episodeId} />
    </Suspense>
  );
}
