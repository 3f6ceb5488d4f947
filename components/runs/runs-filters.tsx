'use client';
// The runs list's filters and search, written to the URL (the list reads them back from there).
// The search box keeps its own text while typing and writes the URL after a short pause.
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { RUN_OUTCOME_LABEL, RUN_OUTCOMES } from '../../contracts/outcomes.ts';
import { RUN_STATUSES } from '../../contracts/runs.ts';
import type { UrlPatch } from '../hooks/use-url-state.ts';
import { useTRPC } from '../trpc/client.tsx';
import { Button } from '../ui/button.tsx';
import { Input, Select } from '../ui/input.tsx';
import type { ListState } from './list-state.ts';

const SEARCH_MS = 300;

export function RunsFilters({
  state,
  onChange,
}: {
  state: ListState;
  onChange: (patch: UrlPatch) => void;
}) {
  const trpc = useTRPC();
  const facets = useQuery(trpc.runs.facets.queryOptions());
  const f = state.filter;
  const active = Object.values(f).some(Boolean);
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2" data-testid="runs-filters">
      <SearchBox value={f.q ?? ''} onSearch={(q) => onChange({ q })} />
      <FilterSelect
        label="Bridge"
        testId="filter-bridge"
        value={f.bridge}
        options={(facets.data?.bridges ?? []).map((b) => [b, b])}
        onChange={(bridge) => onChange({ bridge })}
      />
      <FilterSelect
        label="Policy"
        testId="filter-policy"
        value={f.policy}
        options={(facets.data?.policies ?? []).map((p) => [p, p])}
        onChange={(policy) => onChange({ policy })}
      />
      <FilterSelect
        label="Status"
        testId="filter-status"
        value={f.status}
        options={RUN_STATUSES.map((s) => [s, s])}
        onChange={(status) => onChange({ status })}
      />
      <FilterSelect
        label="Outcome"
        testId="filter-outcome"
        value={f.outcome}
        options={RUN_OUTCOMES.map((o) => [o, RUN_OUTCOME_LABEL[o]])}
        onChange={(outcome) => onChange({ outcome })}
      />
      {active ? (
        <Button
          size="sm"
          variant="ghost"
          data-testid="filters-clear"
          onClick={() =>
            onChange({ q: null, bridge: null, policy: null, status: null, outcome: null })
          }
        >
          Clear filters
        </Button>
      ) : null}
    </div>
  );
}

function FilterSelect({
  label,
  testId,
  value,
  options,
  onChange,
}: {
  label: string;
  testId: string;
  value: string | undefined;
  options: [string, string][];
  onChange: (value: string) => void;
}) {
  // A value from the URL that the facets do not list yet stays selectable.
  const all = value && !options.some(([v]) => v === value) ? [...options, [value, value]] : options;
  return (
    <Select
      aria-label={label}
      data-testid={testId}
      className="h-8 w-auto min-w-32 text-xs"
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">{label}: all</option>
      {all.map(([v, text]) => (
        <option key={v} value={v}>
          {label}: {text}
        </option>
      ))}
    </Select>
  );
}

function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(value);
  const sent = useRef(value);
  // The URL changed from elsewhere (back button, "Clear filters"): show what it says. Our own
  // write coming back is ignored, so letters typed meanwhile are kept.
  useEffect(() => {
    if (value !== sent.current) setText(value);
    sent.current = value;
  }, [value]);
  useEffect(() => {
    const q = text.trim();
    if (q === sent.current) return;
    const t = setTimeout(() => {
      sent.current = q;
      onSearch(q);
    }, SEARCH_MS);
    return () => clearTimeout(t);
  }, [text, onSearch]);
  return (
    <div className="relative">
      <Search className="pointer-events-none absolute top-2 left-2.5 size-4 text-muted-foreground" />
      <Input
        type="search"
        aria-label="Search runs by id, task or harness"
        placeholder="Search id, task, harness…"
        data-testid="runs-search"
        className="h-8 w-64 pl-8 text-xs"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
    </div>
  );
}
