import type { Metadata } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { AppShell } from '../components/layout/app-shell.tsx';
import { Providers } from './providers.tsx';
import './globals.css';

export const metadata: Metadata = {
  title: 'EnvHarness Studio',
  description:
    'Wrap benchmark environments with harness stacks and validate them with live rollouts.',
};

// Every page is rendered per request (reading the headers makes it so): its inline scripts carry
// that request's CSP nonce (server/hardening/web.ts), which a page prerendered at build time could
// not. Next puts the nonce on its own scripts; the theme script gets it here.
export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body>
        <Providers nonce={nonce}>
          <AppShell>{children}</AppShell>
        </Providers>
      </body>
    </html>
  );
}
