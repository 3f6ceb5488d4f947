import type * as React from 'react';
import { cn } from './cn.ts';
import { Input, Label } from './input.tsx';

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

/** A labelled number input that reports numbers. */
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
}) {
  return (
    <Field label={label} htmlFor={id} className={className}>
      <Input
        id={id}
        data-testid={testId}
        type="number"
        className={inputClassName}
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </Field>
  );
}
