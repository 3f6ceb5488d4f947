// One wording for a value that fails its schema: "path: message" of the first issue.
import type { z } from 'zod';

export function firstIssue(error: z.ZodError, root = '(root)'): string {
  const issue = error.issues[0];
  if (!issue) return `${root}: invalid`;
  return `${issue.path.join('.') || root}: ${issue.message}`;
}
