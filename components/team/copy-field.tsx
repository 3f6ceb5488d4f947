'use client';
// A link to hand on: read-only text (selected on focus) and a Copy button that says when it copied.
import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';

/** The absolute URL of a studio path, as the person will paste it. */
export function absolute(path: string): string {
  return typeof window === 'undefined' ? path : new URL(path, window.location.origin).toString();
}

export function CopyField({ value, testId }: { value: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // No clipboard permission (an http origin other than localhost): the text stays selectable.
      setCopied(false);
    }
  };
  return (
    <div className="flex items-center gap-2">
      <Input
        readOnly
        value={value}
        aria-label="Link"
        data-testid={testId}
        className="h-8 font-mono text-xs"
        onFocus={(e) => e.currentTarget.select()}
      />
      <Button
        type="button"
        variant="outline"
        size="sm"
        onClick={() => void copy()}
        data-testid={`${testId}-copy`}
      >
        {copied ? <Check /> : <Copy />}
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </div>
  );
}
