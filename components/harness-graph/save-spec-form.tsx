'use client';
// The editor toolbar's save control: a name and a button, enabled while the graph is a spec.
import { Save } from 'lucide-react';
import type { ReactNode } from 'react';
import type { HarnessSpec } from '../../contracts/spec.ts';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';
import type { ToSpecResult } from './model.ts';

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
  return (
    <form
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (spec.ok) onSave(spec.spec);
      }}
    >
      <Input
        data-testid={nameTestId}
        className={inputClassName}
        placeholder={placeholder}
        value={name}
        onChange={(e) => onName(e.target.value)}
      />
      <Button type="submit" size="sm" data-testid={saveTestId} disabled={!spec.ok || pending}>
        <Save /> {children}
      </Button>
    </form>
  );
}
