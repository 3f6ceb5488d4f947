// Reads ALFWorld-style feedback text (ALFWORLD.md "Text" and "Commands"): the room's receptacles,
// what a receptacle holds, and whether the last command failed. Only the text an agent sees.

/** Splits `a mug 1, an apple 2, and a knife 1` into `['mug 1', 'apple 2', 'knife 1']`. */
export function parseList(list: string): string[] {
  const trimmed = list.trim().replace(/\.$/, '').trim();
  if (trimmed === '' || trimmed === 'nothing') return [];
  return trimmed
    .split(/,\s*(?:and\s+)?|\s+and\s+/)
    .map((s) => s.trim().replace(/^(?:a|an|the|some)\s+/, ''))
    .filter((s) => s.length > 0);
}

/** Receptacles listed by the room's look text ("Looking quickly around you, you see ..."). */
export function parseRoom(text: string): string[] | undefined {
  const m = /looking quickly around you, you see (.+?)\.(?:\s*$|\s*\n)/im.exec(text);
  return m?.[1] ? parseList(m[1]) : undefined;
}

export interface ReceptacleView {
  receptacle: string;
  /** `closed`: contents not visible. */
  state: 'closed' | 'open' | 'surface';
  contents: string[];
}

/** The examine text a receptacle shows on arrival, opening or examining. */
export function parseReceptacleView(text: string, receptacle?: string): ReceptacleView | undefined {
  const closed = /the ([a-z]+ \d+) is closed\./i.exec(text);
  if (closed?.[1]) return { receptacle: closed[1].toLowerCase(), state: 'closed', contents: [] };
  const open = /the ([a-z]+ \d+) is open\. in it, you see (.*?)\.\s*$/im.exec(text);
  if (open?.[1]) {
    return { receptacle: open[1].toLowerCase(), state: 'open', contents: parseList(open[2] ?? '') };
  }
  const surface = /on the ([a-z]+ \d+), you see (.*?)\.\s*$/im.exec(text);
  if (surface?.[1]) {
    return {
      receptacle: surface[1].toLowerCase(),
      state: 'surface',
      contents: parseList(surface[2] ?? ''),
    };
  }
  // Some receptacles print only "You arrive at X." with nothing else: treat as an empty surface.
  if (
    receptacle &&
    new RegExp(`you arrive at (?:the )?${escapeRe(receptacle)}\\.\\s*$`, 'i').test(text)
  ) {
    return { receptacle, state: 'surface', contents: [] };
  }
  return undefined;
}

export function isNothingHappens(text: string): boolean {
  return /^\s*nothing happens\.?\s*$/i.test(text);
}

/** Types by name: an episode asks for the same few dozen names at every step. */
const types = new Map<string, string>();

/** Object type of a name: `mug 2` -> `mug`. */
export function typeOf(name: string): string {
  let type = types.get(name);
  if (type === undefined) {
    type = name.replace(/\s+\d+$/, '').replace(/\s+/g, '');
    // Names come from environment text: a bounded cache, not one entry per string ever seen.
    if (types.size >= 4096) types.clear();
    types.set(name, type);
  }
  return type;
}

/** Object state flags from `examine <o>` text ("This is a hot and clean mug 1."). */
export function parseObjectState(text: string): { hot: boolean; cool: boolean; clean: boolean } {
  const m = /this is an? (.+?) [a-z]+ \d+\./i.exec(text);
  const words = (m?.[1] ?? '').toLowerCase();
  return {
    hot: /\bhot\b/.test(words),
    cool: /\b(?:cool|cold)\b/.test(words),
    clean: /\bclean\b/.test(words),
  };
}

export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
