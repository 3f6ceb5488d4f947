export function taskHref(bridge: string, task: string): string {
  return `/tasks/${encodeURIComponent(bridge)}/${encodeURIComponent(task)}`;
}
