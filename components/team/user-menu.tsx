'use client';
// The user menu: who is signed in (name, email, role in the active project), the project switcher,
// and sign-out (a link to /signout, which signs out when followed from the studio; the server also
// takes a form POST). In the single-user default it says so and offers no sign-out.
import { ChevronDown, LogOut, Users } from 'lucide-react';
import Link from 'next/link';
import { Popover } from 'radix-ui';
import { Button } from '../ui/button.tsx';
import { Select } from '../ui/input.tsx';
import { type TeamMe, useMe } from './use-me.ts';

/** The project cookie the server reads (server/auth/context.ts PROJECT_COOKIE). */
const PROJECT_COOKIE = 'eh_project';

function switchProject(projectId: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: the server reads the active project from this cookie.
  document.cookie = `${PROJECT_COOKIE}=${encodeURIComponent(projectId)}; Path=/; SameSite=Lax; Max-Age=${365 * 24 * 3600}`;
  // Every query is the project's: start the page afresh in the new one.
  window.location.assign('/');
}

export function UserMenu() {
  const me = useMe().data;
  if (!me) return null;
  if (me.mode === 'local') {
    return (
      <span className="text-xs text-muted-foreground" data-testid="user-local">
        Local user · every role
      </span>
    );
  }
  if (!me.user) return null;
  return <MemberMenu me={me} user={me.user} />;
}

function MemberMenu({ me, user }: { me: TeamMe; user: NonNullable<TeamMe['user']> }) {
  const label = user.name || user.email;
  const project = me.projects.find((p) => p.projectId === me.projectId);
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button variant="ghost" size="sm" data-testid="user-menu" aria-label={`Account: ${label}`}>
          <span className="max-w-40 truncate">{label}</span>
          <span className="rounded bg-muted px-1.5 py-0.5 text-[11px] text-foreground">
            {me.role ?? 'no role'}
          </span>
          <ChevronDown />
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          className="z-50 w-72 rounded-xl border bg-card p-3 text-sm text-card-foreground shadow-lg"
          data-testid="user-menu-panel"
        >
          <div className="font-medium" data-testid="user-name">
            {user.name || '(no name)'}
          </div>
          <div className="text-muted-foreground" data-testid="user-email">
            {user.email}
          </div>
          <div className="mt-1 text-xs" data-testid="user-role">
            {me.role ? (
              <>
                <strong>{me.role}</strong> in {project?.name ?? 'this project'}
              </>
            ) : (
              'not a member of this project'
            )}
            {user.instanceAdmin ? ' · instance admin' : ''}
          </div>
          {me.projects.length > 0 ? (
            <label htmlFor="project-switcher" className="mt-3 block text-xs text-muted-foreground">
              Project
              <Select
                id="project-switcher"
                className="mt-1 h-8"
                value={me.projectId ?? ''}
                data-testid="project-switcher"
                onChange={(e) => switchProject(e.target.value)}
              >
                {me.projectId && !project ? <option value={me.projectId}>(current)</option> : null}
                {me.projects.map((p) => (
                  <option key={p.projectId} value={p.projectId}>
                    {p.name} ({p.role})
                  </option>
                ))}
              </Select>
            </label>
          ) : null}
          <div className="mt-3 flex flex-col gap-1 border-t pt-2">
            {me.role === 'admin' ? (
              <Link
                href="/admin"
                className="flex items-center gap-2 rounded px-1 py-1 hover:bg-muted"
                data-testid="menu-members"
              >
                <Users className="size-4" /> Members and invites
              </Link>
            ) : null}
            {/* A plain link: the server signs out a same-origin GET (server/auth/http.ts). */}
            <a
              href="/signout"
              className="flex items-center gap-2 rounded px-1 py-1 hover:bg-muted"
              data-testid="signout-link"
            >
              <LogOut className="size-4" /> Sign out
            </a>
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
