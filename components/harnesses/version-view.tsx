'use client';
// One harness version, read-only: its graph and its spec. What a share link of a version opens, and
// a page any member can link to.
import '@xyflow/react/dist/style.css';
import { useQuery } from '@tanstack/react-query';
import { Background, Controls, ReactFlow, ReactFlowProvider } from '@xyflow/react';
import Link from 'next/link';
import { useMemo } from 'react';
import { toFlowEdges, toFlowNodes } from '../harness-graph/flow.ts';
import { laidOut } from '../harness-graph/layout.ts';
import { specToGraph } from '../harness-graph/model.ts';
import { type FlowNode, nodeTypes } from '../harness-graph/nodes.tsx';
import { useColorMode } from '../layout/color-mode.ts';
import { ShareButton } from '../team/share-button.tsx';
import { shareOf, useMe } from '../team/use-me.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';
import { ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';

export function VersionView({ id }: { id: string }) {
  const trpc = useTRPC();
  const v = useQuery(trpc.harnesses.version.queryOptions({ id }));
  const share = shareOf(useMe().data);
  const colorMode = useColorMode();
  const graph = useMemo(() => (v.data ? laidOut(specToGraph(v.data.spec)) : null), [v.data]);
  if (v.error) return <ErrorNote error={v.error} />;
  if (!v.data || !graph) return <Skeleton className="h-96" />;
  const h = v.data.harness;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        eyebrow={
          share ? null : (
            <Link href={`/harnesses/${h.id}?version=${v.data.version}`} className="hover:underline">
              ← {h.name} (open in the editor)
            </Link>
          )
        }
        title={
          <span className="flex items-center gap-3" data-testid="version-title">
            {h.name} · v{v.data.version} “{v.data.name}”<Badge variant="outline">{h.status}</Badge>
          </span>
        }
        description={
          <span>
            On{' '}
            <span className="font-mono">
              {h.bridge}:{h.taskId}
            </span>{' '}
            · versions never change.
          </span>
        }
        actions={<ShareButton kind="harnessVersion" ids={[id]} />}
      />
      <div
        className="h-[560px] overflow-hidden rounded-xl border bg-card"
        data-testid="version-graph"
      >
        <ReactFlowProvider>
          <ReactFlow<FlowNode>
            nodes={toFlowNodes(graph, new Map(), { dragging: {}, selectedId: undefined })}
            edges={toFlowEdges(graph, [])}
            nodeTypes={nodeTypes}
            nodesDraggable={false}
            nodesConnectable={false}
            elementsSelectable={false}
            colorMode={colorMode}
            fitView
            fitViewOptions={{ padding: 0.2, maxZoom: 1, minZoom: 0.75 }}
            proOptions={{ hideAttribution: true }}
          >
            <Background gap={20} />
            <Controls showInteractive={false} />
          </ReactFlow>
        </ReactFlowProvider>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Spec</CardTitle>
        </CardHeader>
        <CardContent>
          <pre
            className="max-h-96 overflow-auto rounded bg-muted p-3 text-xs"
            data-testid="version-spec"
          >
            {JSON.stringify(v.data.spec, null, 2)}
          </pre>
        </CardContent>
      </Card>
    </div>
  );
}
