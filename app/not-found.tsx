import Link from 'next/link';

/** Any URL that names nothing: a missing run, episode, task, harness, rig or skill bank, or no route. */
export default function NotFound() {
  return (
    <div className="mx-auto max-w-xl py-16 text-center" data-testid="not-found">
      <p className="text-sm font-medium text-muted-foreground">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">Not found</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        Nothing exists at this address: the run, episode, task, harness, rig or skill bank it names
        is not in this studio (or not in your project).
      </p>
      <div className="mt-6 flex justify-center gap-4 text-sm">
        <Link href="/" className="text-primary hover:underline">
          Benchmark tasks
        </Link>
        <Link href="/runs" className="text-primary hover:underline">
          Runs
        </Link>
        <Link href="/harnesses" className="text-primary hover:underline">
          Harnesses
        </Link>
      </div>
    </div>
  );
}
