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
    `# ${base.bridge}:${base.task}; seed = the episode seed of harness rollout`,
    `url = "${url}"`,
    'with GenericEnvClient(base_url=url).sync() as env:',
    '    result = env.reset(seed=0)',
    '    while not result.done:',
    '        moves = result.observation.get("legal_actions")',
    '        # a text tool takes {"message": …}; any tool {"tool", "args"}',
    '        result = env.step({"message": moves[0]})',
    '    print(result.reward, result.metadata["evaluation"])',
  ].join('\n');
}
