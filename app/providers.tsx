'use client';
import { ThemeProvider } from 'next-themes';
import type { ReactNode } from 'react';
import { TRPCReactProvider } from '../components/trpc/client.tsx';

/** `nonce`: this request's CSP nonce, for the theme's inline script (app/layout.tsx). */
export function Providers({
  children,
  nonce,
}: {
  children: ReactNode;
  nonce?: string | undefined;
}) {
  return (
    <ThemeProvider
      attribute="class"
      defaultTheme="system"
      enableSystem
      disableTransitionOnChange
      {...(nonce ? { nonce } : {})}
    >
      <TRPCReactProvider>{children}</TRPCReactProvider>
    </ThemeProvider>
  );
}
