// Pretty JSON with light syntax colouring; plain <pre>, so it copies cleanly and stays fast.
import type { ReactNode } from 'react';
import { cn } from '../ui/cn.ts';

function render(value: unknown, indent: number, key: string): ReactNode {
  const pad = '  '.repeat(indent);
  if (value === null) return <span className="text-muted-foreground">null</span>;
  if (typeof value === 'string')
    return <span className="text-success">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="text-info">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="text-warning">{String(value)}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const simple = value.every((v) => v === null || typeof v !== 'object');
    if (simple && JSON.stringify(value).length < 80) {
      return (
        <>
          [
          {value.map((v, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: positions are the identity of array items
            <span key={`${key}.${i}`}>
              {i > 0 ? ', ' : ''}
              {render(v, 0, `${key}.${i}`)}
            </span>
          ))}
          ]
        </>
      );
    }
    return (
      <>
        {'[\n'}
        {value.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: positions are the identity of array items
          <span key={`${key}.${i}`}>
            {pad}
            {'  '}
            {render(v, indent + 1, `${key}.${i}`)}
            {i < value.length - 1 ? ',' : ''}
            {'\n'}
          </span>
        ))}
        {pad}]
      </>
    );
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return (
      <>
        {'{\n'}
        {entries.map(([k, v], i) => (
          <span key={`${key}.${k}`}>
            {pad}
            {'  '}
            <span className="text-accent-foreground">{JSON.stringify(k)}</span>:{' '}
            {render(v, indent + 1, `${key}.${k}`)}
            {i < entries.length - 1 ? ',' : ''}
            {'\n'}
          </span>
        ))}
        {pad}
        {'}'}
      </>
    );
  }
  return String(value);
}

export function JsonView({
  value,
  className,
  testId,
}: {
  value: unknown;
  className?: string;
  testId?: string;
}) {
  return (
    <pre
      data-testid={testId}
      className={cn(
        'overflow-auto rounded-lg border bg-muted/40 p-3 font-mono text-xs leading-relaxed',
        className,
      )}
    >
      {render(value, 0, '$')}
    </pre>
  );
}
