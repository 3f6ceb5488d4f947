import { TaskDetail } from '../../../../components/tasks/task-detail.tsx';

export default async function TaskPage({
  params,
}: {
  params: Promise<{ bridge: string; task: string }>;
}) {
  const { bridge, task } = await params;
  return <TaskDetail bridge={decodeURIComponent(bridge)} task={decodeURIComponent(task)} />;
}
