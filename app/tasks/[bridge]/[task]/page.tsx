import { TaskDetail } from '../../../../components/tasks/task-detail.tsx';
import { requireFound } from '../../../../components/trpc/server.ts';

export default async function TaskPage({
  params,
}: {
  params: Promise<{ bridge: string; task: string }>;
}) {
  const { bridge: b, task: t } = await params;
  const bridge = decodeURIComponent(b);
  const task = decodeURIComponent(t);
  await requireFound((api) => api.tasks.byId.query({ bridge, task }));
  return <TaskDetail bridge={bridge} task={task} />;
}
