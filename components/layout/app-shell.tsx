'use client';
import {
  Boxes,
  FlaskConical,
  GitCompare,
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

export function AppShell({ children }: { children: ReactNode }) {
  const pathname = usePathname() ?? '/';
  return (
    <div className="min-h-screen">
      <header className="sticky top-0 z-30 border-b bg-background/85 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-[1400px] items-center gap-6 px-6">
          <Link href="/" className="flex items-center gap-2 font-semibold tracking-tight">
            <FlaskConical className="size-5 text-primary" />
            EnvHarness Studio
          </Link>
          <nav className="flex items-center gap-1" aria-label="Main">
            {NAV.map((item) => {
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
            <ThemeToggle />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-[1400px] px-6 py-8">{children}</main>
    </div>
  );
}
