import Link from 'next/link';
import type * as React from 'react';

/** The "← up" link above a page's title. */
export function BackLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <Link href={href} className="hover:underline">
      ← {children}
    </Link>
  );
}
