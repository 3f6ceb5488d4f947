import type * as React from 'react';
import { cn } from './cn.ts';
import { FieldProblems } from './field-problems.tsx';
import { Input, Label } from './input.tsx';
import type { Problem } from './problems.ts';

/** A labelled control: the label above, the control below. */
export function Field({
  label,
  htmlFor,
  className,
  children,
}: {
  label: React.ReactNode;
  htmlFor?: string;
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
    </div>
  );
}

/**
 * A labelled number input that reports numbers, with the range it takes (`hint`) and its problems
 * (one sentence each, under it; the input is marked invalid while it has any).
 */
export function NumberField({
  id,
  label,
  value,
  onChange,
  testId,
  className,
  inputClassName,
  min,
  max,
  step,
  hint,
  problems = [],
}: {
  id: string;
  label: React.ReactNode;
  value: number;
  onChange: (value: number) => void;
  testId?: string;
  className?: string;
  inputClassName?: string;
  min?: number;
  max?: number;
  step?: number;
  hint?: React.ReactNode;
  problems?: Problem[];
}) {
  const invalid = problems.length > 0;
  return (
    <Field label={label} htmlFor={id} className={className}>
      <Input
        id={id}
        data-testid={testId}
        type="number"
        className={cn(inputClassName, invalid && 'border-danger')}
        min={min}
        max={max}
        step={step}
        value={Number.isNaN(value) ? '' : value}
        aria-invalid={invalid || undefined}
        aria-describedby={hint || invalid ? `${id}-help` : undefined}
        onChange={(e) =>
          onChange(e.target.value.trim() === '' ? Number.NaN : Number(e.target.value))
        }
      />
      <div id={`${id}-help`}>
        {hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
        <FieldProblems problems={problems} testId={testId ? `${testId}-problem` : undefined} />
      </div>
    </Field>
  );
}
