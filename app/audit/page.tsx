import { Suspense } from 'react';
import { AuditTrail } from '../../components/audit/audit-trail.tsx';

export default function AuditPage() {
  return (
    <Suspense>
      <AuditTrail />
    </Suspense>
  );
}
