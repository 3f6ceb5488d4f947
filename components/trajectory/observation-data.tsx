'use client';
// What a step's observation data adds to the viewer, by its shape (contracts/steps.ts): the page
// references of document bridges, and the location and screenshot of browser bridges.
import { FileText, Globe } from 'lucide-react';
import {
  type BrowserData,
  BrowserDataSchema,
  type PageRefsData,
  PageRefsDataSchema,
  type StepScreenshot,
} from '../../contracts/steps.ts';
import { Badge } from '../ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card.tsx';

export function browserData(data: unknown): BrowserData | undefined {
  const r = BrowserDataSchema.safeParse(data);
  return r.success ? r.data : undefined;
}

export function pageRefs(data: unknown): PageRefsData['refs'] | undefined {
  const r = PageRefsDataSchema.safeParse(data);
  return r.success ? r.data.refs : undefined;
}

export type ScreenshotView = { pending: boolean; value?: StepScreenshot | null; error?: string };

export function BrowserCard({
  data,
  shot,
}: {
  data: BrowserData;
  shot: ScreenshotView | undefined;
}) {
  return (
    <Card data-testid="browser-card">
      <CardHeader className="flex-row items-center justify-between gap-2">
        <CardTitle className="flex items-center gap-2">
          <Globe className="size-4" /> Browser after this step
        </CardTitle>
        {data.truncated ? <Badge variant="warning">tree truncated</Badge> : null}
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <code className="break-all rounded bg-muted px-2 py-1 text-xs" data-testid="browser-url">
          {data.url}
        </code>
        <ol className="flex flex-wrap gap-1 text-xs" aria-label="Open tabs">
          {data.tabs.map((t, i) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: tabs are positional
              key={i}
              className={
                i === (data.activeTab ?? 0)
                  ? 'rounded border border-primary px-2 py-0.5'
                  : 'rounded border px-2 py-0.5 text-muted-foreground'
              }
            >
              Tab {i}: {t.title || 'blank'}
            </li>
          ))}
        </ol>
        <Screenshot shot={shot} />
      </CardContent>
    </Card>
  );
}

function Screenshot({ shot }: { shot: ScreenshotView | undefined }) {
  if (!shot || shot.pending)
    return (
      <p className="text-sm text-muted-foreground">
        Rebuilding the screenshot by replaying the episode…
      </p>
    );
  if (shot.error) return <p className="text-sm text-danger">{shot.error}</p>;
  if (!shot.value)
    return <p className="text-sm text-muted-foreground">This bridge takes no screenshots.</p>;
  return (
    // biome-ignore lint/performance/noImgElement: a data URL of a replayed page, not a static asset
    <img
      src={`data:${shot.value.mimeType};base64,${shot.value.data}`}
      alt="The browser page after this step"
      className="w-full rounded-lg border"
      data-testid="step-screenshot"
    />
  );
}

export function PageRefsCard({ refs }: { refs: PageRefsData['refs'] }) {
  return (
    <Card data-testid="page-refs">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FileText className="size-4" /> Pages referenced ({refs.length})
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-wrap gap-1">
          {refs.map((r, i) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: ranked results may repeat a page
              key={i}
              className="rounded bg-muted px-2 py-0.5 font-mono text-xs"
              data-testid="page-ref"
            >
              {r.document} · p. {r.page}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
