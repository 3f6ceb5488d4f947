// Reads the EvoHarness workspace a bpe policy recorded on a step (StepRecord.meta.bpe): pure, so the
// trajectory viewer's BPE panel and tests share it. Unknown or missing data reads as "no workspace".

export interface BpeFact {
  key: string;
  value: string;
}

export interface BpeStepView {
  kind: 'meta' | 'env';
  /** The meta-action, when this step is one. */
  meta?: {
    verb: string | null;
    arg: string | null;
    raw: string;
    valid: boolean;
    feedback: string;
    by: string;
  };
  metaActions: number;
  invalidMeta: number;
  parts: { belief: boolean; progress: boolean; experience: boolean };
  belief: {
    at: string | null;
    holding: string | null;
    receptacles: { name: string; state: string; objects: string[] }[];
    states: BpeFact[];
    other: BpeFact[];
  };
  progress: { text: string; status: 'pending' | 'done' }[];
  experience: {
    size: number;
    recalled: { id: string; title: string; category: string }[];
    notes: string[];
  };
  changes: {
    belief: { key: string; before: string | null; after: string | null }[];
    progress: string[];
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Belief facts grouped for reading: objects under the receptacle they are in, states, the rest. */
function readBelief(facts: Obj): BpeStepView['belief'] {
  const receptacles = new Map<string, { name: string; state: string; objects: string[] }>();
  const states: BpeFact[] = [];
  const other: BpeFact[] = [];
  for (const [key, raw] of Object.entries(facts)) {
    const value = str(raw) ?? JSON.stringify(raw);
    if (key.startsWith('recep:')) {
      const name = key.slice(6);
      const r = receptacles.get(name) ?? { name, state: value, objects: [] };
      r.state = value;
      receptacles.set(name, r);
    } else if (key.startsWith('loc:')) {
      if (value === 'held') continue;
      const r = receptacles.get(value) ?? { name: value, state: 'seen', objects: [] };
      r.objects.push(key.slice(4));
      receptacles.set(value, r);
    } else if (key.startsWith('state:')) states.push({ key: key.slice(6), value });
    else if (!['at', 'holding', 'goal', 'room'].includes(key)) other.push({ key, value });
  }
  return {
    at: str(facts.at),
    holding: str(facts.holding),
    receptacles: [...receptacles.values()].sort((a, b) =>
      a.name.localeCompare(b.name, 'en', { numeric: true }),
    ),
    states,
    other,
  };
}

function readProgress(progress: unknown): BpeStepView['progress'] {
  return Array.isArray(progress)
    ? progress.filter(isObj).map((p) => ({
        text: str(p.text) ?? '',
        status: p.status === 'done' ? 'done' : 'pending',
      }))
    : [];
}

function readExperience(exp: Obj): BpeStepView['experience'] {
  return {
    size: typeof exp.size === 'number' ? exp.size : 0,
    recalled: Array.isArray(exp.recalled)
      ? exp.recalled.filter(isObj).map((r) => ({
          id: str(r.id) ?? '',
          title: str(r.title) ?? '',
          category: str(r.category) ?? '',
        }))
      : [],
    notes: strings(exp.notes),
  };
}

function readChanges(changes: Obj): BpeStepView['changes'] {
  return {
    belief: Array.isArray(changes.belief)
      ? changes.belief
          .filter(isObj)
          .map((c) => ({ key: str(c.key) ?? '', before: str(c.before), after: str(c.after) }))
      : [],
    progress: strings(changes.progress),
  };
}

export function bpeOf(meta: unknown): BpeStepView | undefined {
  if (!isObj(meta) || !isObj(meta.bpe)) return undefined;
  const b = meta.bpe;
  const ws = isObj(b.workspace) ? b.workspace : {};
  const parts = isObj(ws.parts) ? ws.parts : {};
  const view: BpeStepView = {
    kind: b.kind === 'meta' ? 'meta' : 'env',
    metaActions: typeof b.metaActions === 'number' ? b.metaActions : 0,
    invalidMeta: typeof b.invalidMeta === 'number' ? b.invalidMeta : 0,
    parts: {
      belief: parts.belief !== false,
      progress: parts.progress !== false,
      experience: parts.experience !== false,
    },
    belief: readBelief(isObj(ws.belief) ? ws.belief : {}),
    progress: readProgress(ws.progress),
    experience: readExperience(isObj(ws.experience) ? ws.experience : {}),
    changes: readChanges(isObj(ws.changes) ? ws.changes : {}),
  };
  if (view.kind === 'meta') {
    view.meta = {
      verb: str(b.verb),
      arg: str(b.arg),
      raw: str(b.raw) ?? '',
      valid: b.valid === true,
      feedback: str(b.feedback) ?? '',
      by: str(b.by) ?? 'policy',
    };
  }
  return view;
}

/** True when the step is an EvoHarness meta-action (for highlighting rows). */
export function isMetaStep(meta: unknown): boolean {
  return isObj(meta) && isObj(meta.bpe) && meta.bpe.kind === 'meta';
}

/**
 * The workspace is recorded when the agent chooses the step's action, so its belief is built from
 * the observations before this step: this step's own observation is in the next step's belief.
 */
export function beliefTiming(kind: BpeStepView['kind']): string {
  return kind === 'meta'
    ? "What the agent believed after this meta-action ran, built from the environment's observations up to the previous step."
    : "What the agent believed when it chose this action, built from the observations up to the previous step: this step's observation appears in the next step's belief.";
}
