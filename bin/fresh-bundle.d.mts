export function freshBundle(root: URL, env?: Record<string, string | undefined>): URL | undefined;
