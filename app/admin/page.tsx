import { Suspense } from 'react';
import { MembersPage } from '../../components/team/members-page.tsx';

export default function AdminPage() {
  return (
    <Suspense>
      <MembersPage />
    </Suspense>
  );
}
