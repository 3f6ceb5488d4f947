'use client';
import {
  Boxes,
  Eye,
  FlaskConical,
  GitCompare,
  History,
  ListChecks,
  Moon,
  Network,
  ShieldCheck,
  Sparkles,
  Sun,
  Wand2,
} from 'lucide-react';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useTheme } from 'next-themes';
import type { ReactNode } from 'react';
import { FollowControls } from '../live/follow.tsx';
import { shareOf, useMe } from '../team/use-me.ts';
import { UserMenu } from '../team/user-menu.tsx';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';

const NAV = [
  {
    href: '/',
    label: 'Tasks',
    icon: Boxes,
    match: (p: string) => p === '/' || p.startsWith('/tasks'),
  },
  { href: '/runs', label: 'Runs', icon: ListChecks, match: (p: string) => p.startsWith('/runs') },
  {
    href: '/harnesses',
    label: 'Harnesses',
    icon: Network,
    match: (p: string) => p.startsWith('/harnesses'),
  },
  { href: '/rigs', label: 'Rigs', icon: Wand2, match: (p: string) => p.startsWith('/rigs') },
  {
    href: '/compare',
    label: 'Compare',
    icon: GitCompare,
    match: (p: string) => p.startsWith('/compare'),
  },
  {
    href: '/skills',
    label: 'Skills',
    icon: Sparkles,
    match: (p: string) => p.startsWith('/skills'),
  },
  {
    href: '/audits',
    label: 'Verifiers',
    icon: ShieldCheck,
    match: (p: string) => p.startsWith('/audits'),
  },
];

function ThemeToggle() {
  const { resolvedTheme, setTheme } = useTheme();
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Toggle dark mode"
      data-testid="theme-toggle"
      onClick={() => setTheme(resolvedTheme === 'dark' ? 'light' : 'dark')}
    >
      <Sun className="hidden dark:block" />
      <Moon className="dark:hidden" />
    </Button>
  );
}

const SHARED_NOUN: Record<string, string> = {
  run: 'run',
  trajectory: 'episode',
  comparison: 'comparison',
  harnessVersion: 'harness version',
  rig: 'rig',
};

/** Pages that use the whole width of the window (the graph editor). */
function fullWidth(pathname: string): boolean {
  return pathname === '/harnesses/new' || /^\/harnesses\/[^/]+$/.test(pathname);
}

function ShareBanner({ share }: { share: NonNullable<ReturnType<typeof shareOf>> }) {
  return (
    <div
      className="border-b border-warning/40 bg-warning-soft px-6 py-2 text-sm text-foreground"
      role="status"
      data-testid="share-banner"
    >
      <Eye className="mr-1.5 inline size-4" />
      Read-only: you are viewing a shared {SHARED_NOUN[share.kind] ?? share.kind} through a link
      that expires {new Date(share.expiresAt).toLocaleString()}.{' '}
      <a href="/signin" className="font-medium underline">
        Sign in
      </a>{' '}
      for the rest of the studio.
    </div>
  );
}

export function AppShell({ children }: { children: ReactNode }) {
  const pathname = usePathname() ?? '/';
  const me = useMe().data;
  const share = shareOf(me);
  const admin = me?.mode === 'team' && me.role === 'admin';
  // A share visitor's navigation holds the shared thing only: every other page would refuse them.
  const nav = share
    ? [
        {
          href: share.path,
          label: `Shared ${SHARED_NOUN[share.kind] ?? share.kind}`,
          icon: Eye,
          match: () => true,
        },
      ]
    : [
        ...NAV,
        ...(admin
          ? [
              {
                href: '/audit',
                label: 'Audit',
                icon: History,
                match: (p: string) => p.startsWith('/audit'),
              },
            ]
          : []),
      ];
  const wide = fullWidth(pathname);
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-30 border-b bg-background/85 backdrop-blur">
        <div
          className={cn(
            'mx-auto flex h-14 items-center gap-6 px-6',
            wide ? 'max-w-none' : 'max-w-[1400px]',
          )}
        >
          {share ? (
            <span className="flex items-center gap-2 font-semibold tracking-tight">
              <FlaskConical className="size-5 text-primary" />
              EnvHarness Studio
            </span>
          ) : (
            <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
              <FlaskConical className="size-5 text-primary" />
              EnvHarness Studio
            </Link>
          )}
          <nav className="flex items-center gap-1" aria-label="Main" data-testid="main-nav">
            {nav.map((item) => {
              const active = item.match(pathname);
              return (
                <Link
                  key={item.href}
                  href={item.href}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    'flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm text-muted-foreground transition-colors hover:bg-muted hover:text-foreground',
                    active && 'bg-muted text-foreground',
                  )}
                >
                  <item.icon className="size-4" />
                  {item.label}
                </Link>
              );
            })}
          </nav>
          <div className="ml-auto flex items-center gap-2">
            {share ? null : <FollowControls />}
            <ThemeToggle />
            <UserMenu />
          </div>
        </div>
      </header>
      {share ? <ShareBanner share={share} /> : null}
      <main
        className={cn('mx-auto px-6 py-8', wide ? 'max-w-none py-4' : 'max-w-[1400px]')}
        data-testid="main"
      >
        {children}
      </main>
    </div>
  );
}
