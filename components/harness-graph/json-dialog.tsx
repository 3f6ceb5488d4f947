'use client';
// The spec as JSON: export it (read-only, with a download) or import one (checked against the
// HarnessSpec schema, the error naming where it is wrong).
import { Download } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../ui/button.tsx';
import { Textarea } from '../ui/input.tsx';
import type { Graph } from './model.ts';
import { importSpecJson } from './spec-json.ts';

export function JsonDialog({
  mode,
  exported,
  onClose,
  onImport,
}: {
  mode: 'import' | 'export';
  exported: string;
  onClose: () => void;
  onImport: (graph: Graph) => void;
}) {
  const [text, setText] = useState(mode === 'export' ? exported : '');
  const [error, setError] = useState<string | null>(null);
  const doImport = () => {
    const result = importSpecJson(text);
    if (result.ok) onImport(result.graph);
    else setError(result.error);
  };
  return (
    <div className="rounded-xl border bg-card p-4" data-testid={`${mode}-dialog`}>
      <div className="mb-2 flex items-center justify-between">
        <div className="text-sm font-medium">
          {mode === 'export' ? 'HarnessSpec (JSON)' : 'Import a HarnessSpec'}
        </div>
        <div className="flex gap-2">
          {mode === 'export' ? (
            <Button variant="outline" size="sm" asChild>
              <a
                href={`data:application/json;charset=utf-8,${encodeURIComponent(exported)}`}
                download="harness-spec.json"
              >
                <Download /> Download
              </a>
            </Button>
          ) : (
            <Button size="sm" data-testid="import-apply" onClick={doImport}>
              Import
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
      <Textarea
        data-testid={`${mode}-text`}
        className="h-64 font-mono text-xs"
        value={text}
        readOnly={mode === 'export'}
        onChange={(e) => setText(e.target.value)}
        placeholder='{ "version": 1, "env": { "type": "base", "bridge": "toy24", "task": "1-1-1-12" } }'
      />
      {error ? (
        <p className="mt-2 text-sm text-danger" data-testid="import-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
