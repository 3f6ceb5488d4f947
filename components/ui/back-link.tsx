'use client';
import Link from 'next/link';
import type * as React from 'react';
import { inShareScope } from '../team/scope.ts';
import { shareOf, useMe } from '../team/use-me.ts';

/** The "← up" link above a page's title (none for a share visitor whom that page would refuse). */
export function BackLink({ href, children }: { href: string; children: React.ReactNode }) {
  const share = shareOf(useMe().data);
  if (!inShareScope(share, href)) return null;
  return (
    <Link href={href} className="hover:underline">
      ← {children}
    </Link>
  );
}

/** A link that a share visitor outside its scope sees as plain text. */
export function ScopedLink({
  href,
  children,
  ...props
}: React.ComponentProps<typeof Link> & { href: string }) {
  const share = shareOf(useMe().data);
  if (!inShareScope(share, href)) {
    return (
      <span
        className={
          typeof props.className === 'string'
            ? props.className.replace(/text-primary|hover:underline/g, '')
            : undefined
        }
      >
        {children}
      </span>
    );
  }
  return (
    <Link href={href} {...props}>
      {children}
    </Link>
  );
}
