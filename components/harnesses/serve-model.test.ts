import { describe, expect, it } from 'vitest';
import { pythonSnippet, serveCommand } from './serve-model.ts';

describe('serve texts', () => {
  it('name the version, the URL and the task', () => {
    expect(serveCommand('h1', 3, 8000)).toBe('npx harness serve --spec harness:h1@3 --port 8000');
    const py = pythonSnippet('http://127.0.0.1:4000', {
      version: 1,
      env: { type: 'base', bridge: 'household', task: 'eval_seen-001' },
    });
    expect(py).toContain('url = "http://127.0.0.1:4000"');
    expect(py).toContain('GenericEnvClient(base_url=url).sync()');
    expect(py).toContain('household:eval_seen-001');
  });
});
