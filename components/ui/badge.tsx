import { cva, type VariantProps } from 'class-variance-authority';
import type * as React from 'react';
import { cn } from './cn.ts';

export const badgeVariants = cva(
  'inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap',
  {
    variants: {
      variant: {
        default: 'bg-secondary text-secondary-foreground border-transparent',
        outline: 'text-muted-foreground',
        success: 'bg-success-soft text-success border-transparent',
        danger: 'bg-danger-soft text-danger border-transparent',
        warning: 'bg-warning-soft text-warning border-transparent',
        info: 'bg-info-soft text-info border-transparent',
        accent: 'bg-accent text-accent-foreground border-transparent',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export function Badge({
  className,
  variant,
  ...props
}: React.ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
