// Word-level diff of two observation texts (raw vs filtered): LCS over whitespace-separated tokens,
// with the whitespace kept so the text reads as it was.

export type DiffPart = { op: 'same' | 'add' | 'del'; text: string };

const MAX_TOKENS = 1500;

export function wordDiff(a: string, b: string): DiffPart[] {
  if (a === b) return [{ op: 'same', text: a }];
  const x = a.split(/(\s+)/);
  const y = b.split(/(\s+)/);
  // Past this size an LCS table costs more than it tells: show a replacement instead.
  if (x.length > MAX_TOKENS || y.length > MAX_TOKENS) {
    return [
      { op: 'del', text: a },
      { op: 'add', text: b },
    ];
  }
  const n = x.length;
  const m = y.length;
  const table = new Uint16Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => table[i * (m + 1) + j]!;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] =
        x[i] === y[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
    }
  }
  const out: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    const last = out.at(-1);
    if (last && last.op === op) last.text += text;
    else out.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      push('same', x[i]!);
      i++;
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) push('del', x[i++]!);
    else push('add', y[j++]!);
  }
  while (i < n) push('del', x[i++]!);
  while (j < m) push('add', y[j++]!);
  return out;
}
