// The texts of "Serve to a trainer" (serve-panel.tsx): the command and a Python snippet, from data.
import { firstBase, type HarnessSpec } from '../../contracts/spec.ts';

export function serveCommand(harnessId: string, version: number, port: number): string {
  return `npx harness serve --spec harness:${harnessId}@${version} --port ${port}`;
}

/** A snippet that plays one episode with OpenEnv's GenericEnvClient (its sync wrapper). */
export function pythonSnippet(url: string, spec: HarnessSpec): string {
  const base = firstBase(spec.env);
  return [
    'from openenv.core import GenericEnvClient',
    '',
    `with GenericEnvClient(base_url="${url}").sync() as env:`,
    `    result = env.reset(seed=0)  # the episode seed of harness rollout (${base.bridge}:${base.task})`,
    '    while not result.done:',
    '        legal = result.observation.get("legal_actions") or ["look"]',
    '        result = env.step({"message": legal[0]})  # or {"tool": name, "args": {...}}',
    '    print(result.reward, result.metadata.get("evaluation"))',
  ].join('\n');
}
