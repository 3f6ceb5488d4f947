'use client';
// The editor toolbar's save control: a name and a button, enabled only while the spec on screen
// was validated and runs (the editor's validation; the server refuses the rest as well).
import { Save } from 'lucide-react';
import type { ReactNode } from 'react';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';
import type { ToSpecResult } from './model.ts';
import { useEditorValidation } from './use-spec-validation.ts';
import type { EditorValidation } from './validation.ts';

const WHY_NOT: Record<Exclude<EditorValidation['state'], 'valid'>, string> = {
  draft: 'The graph is not a harness yet',
  checking: 'Checking that the harness runs…',
  invalid: 'The harness cannot run: fix the problems marked on its nodes',
  error: 'The harness could not be checked',
};

export function SaveSpecForm({
  spec,
  name,
  onName,
  onSave,
  pending,
  nameTestId,
  saveTestId,
  inputClassName,
  placeholder,
  children,
}: {
  spec: ToSpecResult;
  name: string;
  onName: (name: string) => void;
  onSave: (spec: HarnessSpec) => void;
  pending: boolean;
  nameTestId: string;
  saveTestId: string;
  inputClassName: string;
  placeholder: string;
  /** The button's label (after the save icon). */
  children: ReactNode;
}) {
  const { state } = useEditorValidation().validation;
  const runs = spec.ok && state === 'valid';
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (runs) onSave(spec.spec);
      }}
    >
      <Input
        data-testid={nameTestId}
        className={inputClassName}
        placeholder={placeholder}
        value={name}
        onChange={(e) => onName(e.target.value)}
      />
      <Button
        type="submit"
        size="sm"
        data-testid={saveTestId}
        disabled={!runs || pending}
        title={state === 'valid' ? undefined : WHY_NOT[state]}
      >
        <Save /> {children}
      </Button>
    </form>
  );
}
