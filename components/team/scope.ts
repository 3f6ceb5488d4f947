// What a share-link visitor may open: the shared thing's page and the pages it links to inside the
// link's scope (the server decides; this only keeps the studio from offering a link it would
// refuse). Pure, so it is tested on its own.
export interface ShareScopeView {
  kind: 'run' | 'trajectory' | 'comparison' | 'harnessVersion' | 'rig';
  ids: string[];
  path: string;
}

/** Whether a share visitor's link may lead to `href` (members: always). */
export function inShareScope(share: ShareScopeView | null | undefined, href: string): boolean {
  if (!share) return true;
  const url = new URL(href, 'http://studio.invalid');
  const p = url.pathname;
  if (href === share.path || `${p}${url.search}` === share.path) return true;
  const run = /^\/runs\/([^/]+)(\/episodes\/([^/]+))?$/.exec(p);
  switch (share.kind) {
    case 'run':
      return run !== null && share.ids.includes(run[1] ?? '');
    case 'comparison':
      return (
        (run !== null && share.ids.includes(run[1] ?? '')) ||
        (p === '/compare' && url.searchParams.get('runs') === share.ids.join('..'))
      );
    case 'trajectory':
      return run?.[3] !== undefined && share.ids.includes(run[3]);
    case 'harnessVersion':
      return p === `/harnesses/versions/${share.ids[0]}`;
    case 'rig': {
      const rig = /^\/rigs\/([^/]+)(\/candidates\/[^/]+)?$/.exec(p);
      // The rig's own runs (baseline, validations) are the runs its page links to.
      return (rig !== null && share.ids.includes(rig[1] ?? '')) || run !== null;
    }
  }
}
