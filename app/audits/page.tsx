import { Suspense } from 'react';
import { VerifierAudit } from '../../components/audits/verifier-audit.tsx';

export default function VerifierAuditPage() {
  return (
    <Suspense>
      <VerifierAudit />
    </Suspense>
  );
}
