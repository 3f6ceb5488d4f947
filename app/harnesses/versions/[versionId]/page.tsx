import { Suspense } from 'react';
import { VersionView } from '../../../../components/harnesses/version-view.tsx';
import { requireFound } from '../../../../components/trpc/server.ts';

export default async function HarnessVersion({
  params,
}: {
  params: Promise<{ versionId: string }>;
}) {
  const { versionId } = await params;
  await requireFound((api) => api.harnesses.version.query({ id: versionId }));
  return (
    <Suspense>
      <VersionView id={versionId} />
    </Suspense>
  );
}
