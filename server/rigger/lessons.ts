// What an accepted harness taught, as the skill tags scripted policies understand (server/policies
// README). Read from the harness itself — its set-up and its Contract annotations — never from the
// policy: a harness that hid the target behind a closed door taught opening closed receptacles.
import type { HarnessNode, HarnessSpec } from '../harness/spec.ts';

function walk(node: HarnessNode, visit: (n: HarnessNode) => void): void {
  visit(node);
  if (node.type === 'stage' || node.type === 'contract') walk(node.env, visit);
  if (node.type === 'chain') {
    walk(node.first, visit);
    walk(node.second, visit);
    if (node.remedial) walk(node.remedial, visit);
  }
}

export function lessonsOf(spec: HarnessSpec): string[] {
  const out = new Set<string>();
  walk(spec.env, (n) => {
    if (n.type === 'contract') {
      for (const m of (n.code ?? '').matchAll(/@teaches ([a-z0-9-]+)/g)) if (m[1]) out.add(m[1]);
    }
    if (n.type === 'stage') {
      const commands = n.actions.map((a) => String(Object.values(a.args)[0] ?? ''));
      // Something was put away and the door closed behind it: finding it means opening receptacles.
      const hid = commands.some(
        (c, i) =>
          /^(move|put) /.test(c) && commands.slice(i + 1).some((d) => d.startsWith('close ')),
      );
      if (hid) out.add('open-closed-receptacles');
      // Practising on objects whose state was prepared shows that the state matters before placing.
      if (commands.some((c) => /^(clean|heat|cool) /.test(c)))
        out.add('verify-state-before-placing');
    }
  });
  return [...out].sort();
}
