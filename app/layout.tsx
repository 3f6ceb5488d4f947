import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { AppShell } from '../components/layout/app-shell.tsx';
import { Providers } from './providers.tsx';
import './globals.css';

export const metadata: Metadata = {
  title: 'EnvHarness Studio',
  description:
    'Wrap benchmark environments with harness stacks and validate them with live rollouts.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <body>
        <Providers>
          <AppShell>{children}</AppShell>
        </Providers>
      </body>
    </html>
  );
}
