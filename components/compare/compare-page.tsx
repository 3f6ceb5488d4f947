'use client';
import { useSearchParams } from 'next/navigation';
import { CompareView } from './compare-view.tsx';

/** `/compare?runs=a..b` */
export function ComparePage() {
  const pair = useSearchParams()?.get('runs') ?? '';
  return <CompareView pair={pair} />;
}
