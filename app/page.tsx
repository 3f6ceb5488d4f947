import { Suspense } from 'react';
import { TaskPicker } from '../components/tasks/task-picker.tsx';

export default function HomePage() {
  return (
    <Suspense>
      <TaskPicker />
    </Suspense>
  );
}
