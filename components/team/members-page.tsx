'use client';
// The admin page of a project: its members (change a role, remove; the last admin is protected by
// the server, which says so), invites (by email and role, giving a single-use link with its expiry)
// and, for instance admins, a new project.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ROLES, type RoleName } from '../../contracts/roles.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Button } from '../ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card.tsx';
import { Input, Select } from '../ui/input.tsx';
import { EmptyState, ErrorNote, PageHeader, Skeleton } from '../ui/misc.tsx';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table.tsx';
import { absolute, CopyField } from './copy-field.tsx';
import { formatExpiry } from './share-button.tsx';
import { useMe } from './use-me.ts';

export function MembersPage() {
  const me = useMe();
  if (me.isPending) return <Skeleton className="h-64" />;
  if (me.data?.mode !== 'team') {
    return (
      <div>
        <PageHeader title="Members" />
        <EmptyState title="Single-user mode">
          Members, invites and projects exist in team mode: start the studio with AUTH_SECRET (32+
          characters) and ADMIN_EMAIL / ADMIN_PASSWORD for the first admin.
        </EmptyState>
      </div>
    );
  }
  if (me.data.role !== 'admin') {
    return (
      <div>
        <PageHeader title="Members" />
        <EmptyState title="Admins only">
          You are a {me.data.role ?? 'non-member'} in this project: an admin of the project manages
          its members.
        </EmptyState>
      </div>
    );
  }
  const data = me.data;
  const project = data.projects.find((p) => p.projectId === data.projectId);
  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title={`Members of ${project?.name ?? 'this project'}`}
        description="Invite people with a role, change roles, remove members. A project always keeps at least one admin."
      />
      <InviteCard projectId={data.projectId ?? ''} />
      <MembersCard selfId={data.user?.id ?? ''} />
      {data.user?.instanceAdmin ? <NewProjectCard /> : null}
    </div>
  );
}

function InviteCard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<RoleName>('researcher');
  const invite = useMutation(
    trpc.auth.createInvite.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.auth.members.queryKey() }),
    }),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Invite</CardTitle>
        <CardDescription>
          A single-use link: whoever opens it first joins with this role. Send it yourself (the
          studio sends no email).
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            invite.mutate({ projectId, role, ...(email.trim() ? { email: email.trim() } : {}) });
          }}
        >
          <label
            htmlFor="invite-email"
            className="flex flex-col gap-1 text-xs text-muted-foreground"
          >
            Email (optional: the link then works for this address only)
            <Input
              id="invite-email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              placeholder="name@lab.org"
              className="w-72"
              data-testid="invite-email"
            />
          </label>
          <label
            htmlFor="invite-role"
            className="flex flex-col gap-1 text-xs text-muted-foreground"
          >
            Role
            <Select
              id="invite-role"
              value={role}
              onChange={(e) => setRole(e.target.value as RoleName)}
              className="w-36"
              data-testid="invite-role"
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </Select>
          </label>
          <Button type="submit" disabled={invite.isPending} data-testid="invite-create">
            Create invite link
          </Button>
        </form>
        <ErrorNote error={invite.error} />
        {invite.data ? (
          <div className="flex flex-col gap-1" data-testid="invite-result">
            <CopyField value={absolute(invite.data.path)} testId="invite-link" />
            <span className="text-xs text-muted-foreground" data-testid="invite-expiry">
              Single use · expires {formatExpiry(invite.data.expiresAt)}
            </span>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}

function MembersCard({ selfId }: { selfId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const members = useQuery(trpc.auth.members.queryOptions());
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.auth.members.queryKey() });
  const setRole = useMutation(trpc.auth.setMemberRole.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(trpc.auth.removeMember.mutationOptions({ onSettled: refresh }));
  if (members.isPending) return <Skeleton className="h-32" />;
  if (members.error) return <ErrorNote error={members.error} />;
  const { invites } = members.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>People</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <ErrorNote error={setRole.error ?? remove.error} testId="members-error" />
        <Table data-testid="members-table">
          <THead>
            <TR>
              <TH>Name</TH>
              <TH>Email</TH>
              <TH>Role</TH>
              <TH>Member since</TH>
              <TH />
            </TR>
          </THead>
          <TBody>
            {members.data.members.map((m) => (
              <TR key={m.userId} data-testid="member-row" data-email={m.email}>
                <TD>
                  {m.name || '—'}
                  {m.userId === selfId ? ' (you)' : ''}
                </TD>
                <TD className="font-mono text-xs">{m.email}</TD>
                <TD>
                  <Select
                    aria-label={`Role of ${m.email}`}
                    value={m.role}
                    className="h-8 w-32"
                    disabled={setRole.isPending}
                    data-testid="member-role"
                    onChange={(e) =>
                      setRole.mutate({ userId: m.userId, role: e.target.value as RoleName })
                    }
                  >
                    {ROLES.map((r) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </Select>
                </TD>
                <TD className="text-xs text-muted-foreground">{formatExpiry(m.since)}</TD>
                <TD>
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={remove.isPending}
                    onClick={() => remove.mutate({ userId: m.userId })}
                    data-testid="member-remove"
                  >
                    Remove
                  </Button>
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
        <div>
          <div className="mb-1 text-xs font-medium">Open invites ({invites.length})</div>
          {invites.length === 0 ? (
            <p className="text-xs text-muted-foreground">None.</p>
          ) : (
            <ul className="text-xs" data-testid="invite-list">
              {invites.map((i) => (
                <li key={i.id}>
                  {i.email ?? 'anyone with the link'} as <strong>{i.role}</strong> · expires{' '}
                  {formatExpiry(i.expiresAt)}
                </li>
              ))}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

function NewProjectCard() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [name, setName] = useState('');
  const create = useMutation(
    trpc.auth.createProject.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.auth.me.queryKey() }),
    }),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>New project</CardTitle>
        <CardDescription>
          Projects keep runs, harnesses and rigs apart. You become the new project's admin; switch
          to it from your menu.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ name });
          }}
        >
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Project name"
            className="w-72"
            aria-label="Project name"
            data-testid="project-name"
          />
          <Button type="submit" disabled={create.isPending} data-testid="project-create">
            Create project
          </Button>
        </form>
        <ErrorNote error={create.error} />
        {create.data ? (
          <p className="text-xs" data-testid="project-created">
            Created <strong>{create.data.name}</strong> ({create.data.slug}).
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}
