// A skill bank in memory and its consolidation: proposals (extracted skills, queued notes) become
// edits — add / update / merge / delete — that are validated before they apply: ids must exist,
// no category grows past its cap, heavily used skills are never deleted. Rejected edits come back
// with the reason (what an LLM consolidator is told).

import { z } from 'zod';
import { firstIssue } from '../../contracts/issues.ts';
import { words } from './retrieve.ts';
import {
  DEFAULT_CATEGORY_CAPS,
  SKILL_CATEGORIES,
  type Skill,
  type SkillCategory,
  type SkillDraft,
} from './types.ts';

/** Skills used at least this often are kept through consolidation (never deleted or merged away). */
export const PROTECTED_USES = 5;

/** A skill as a designer or extractor proposes it. */
export const DraftFields = {
  category: z.enum(SKILL_CATEGORIES),
  taskType: z.string().nullable().optional(),
  title: z.string().min(1).max(200),
  description: z.string().max(1000).default(''),
  content: z.string().min(1).max(4000),
  sourceEpisodeIds: z.array(z.string()).default([]),
};

export const SkillEditSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('add'), skill: z.object(DraftFields), reason: z.string().default('') }),
  z.object({
    op: z.literal('update'),
    id: z.string().min(1),
    patch: z.object(DraftFields).partial(),
    reason: z.string().default(''),
  }),
  z.object({
    op: z.literal('merge'),
    ids: z.array(z.string().min(1)).min(2),
    into: z.object(DraftFields),
    reason: z.string().default(''),
  }),
  z.object({ op: z.literal('delete'), id: z.string().min(1), reason: z.string().default('') }),
]);
export type SkillEdit = z.infer<typeof SkillEditSchema>;

export interface EditRecord {
  op: SkillEdit['op'];
  skillId: string | null;
  before: Skill | Skill[] | null;
  after: Skill | null;
  reason: string;
}

export interface ApplyResult {
  applied: EditRecord[];
  rejected: { edit: unknown; reason: string }[];
}

export class SkillBankState {
  readonly skills: Skill[];
  readonly history: EditRecord[] = [];
  private nextId: number;

  constructor(
    skills: Skill[] = [],
    readonly caps: Record<SkillCategory, number> = DEFAULT_CATEGORY_CAPS,
    private readonly idPrefix = 'sk',
  ) {
    this.skills = skills.map((s) => ({ ...s }));
    this.nextId = skills.length + 1;
  }

  byId(id: string): Skill | undefined {
    return this.skills.find((s) => s.id === id);
  }

  count(category: SkillCategory): number {
    return this.skills.filter((s) => s.category === category).length;
  }

  private newId(): string {
    for (;;) {
      const id = `${this.idPrefix}${this.nextId}`;
      this.nextId += 1;
      if (!this.byId(id)) return id;
    }
  }

  private make(d: z.infer<z.ZodObject<typeof DraftFields>>, uses = 0): Skill {
    return {
      id: this.newId(),
      category: d.category,
      taskType: d.taskType ?? null,
      title: d.title,
      description: d.description,
      content: d.content,
      sourceEpisodeIds: [...new Set(d.sourceEpisodeIds)],
      uses,
    };
  }

  /** Validates and applies edits one by one (a later edit sees the earlier ones' effect). */
  apply(edits: unknown[]): ApplyResult {
    const result: ApplyResult = { applied: [], rejected: [] };
    for (const raw of edits) {
      const parsed = SkillEditSchema.safeParse(raw);
      if (!parsed.success) {
        result.rejected.push({
          edit: raw,
          reason: `malformed edit at ${firstIssue(parsed.error)}`,
        });
        continue;
      }
      const reason = this.applyOne(parsed.data);
      if (typeof reason === 'string') result.rejected.push({ edit: raw, reason });
      else {
        result.applied.push(reason);
        this.history.push(reason);
      }
    }
    return result;
  }

  private applyOne(e: SkillEdit): EditRecord | string {
    switch (e.op) {
      case 'add': {
        const cap = this.caps[e.skill.category];
        if (this.count(e.skill.category) >= cap)
          return `category '${e.skill.category}' is full (${cap} skills): merge or delete first`;
        const skill = this.make(e.skill);
        this.skills.push(skill);
        return {
          op: 'add',
          skillId: skill.id,
          before: null,
          after: { ...skill },
          reason: e.reason,
        };
      }
      case 'update': {
        const s = this.byId(e.id);
        if (!s) return `no skill with id '${e.id}'`;
        if (
          e.patch.category &&
          e.patch.category !== s.category &&
          this.count(e.patch.category) >= this.caps[e.patch.category]
        )
          return `category '${e.patch.category}' is full (${this.caps[e.patch.category]} skills)`;
        const before = { ...s };
        if (e.patch.category !== undefined) s.category = e.patch.category;
        if (e.patch.taskType !== undefined) s.taskType = e.patch.taskType ?? null;
        if (e.patch.title !== undefined) s.title = e.patch.title;
        if (e.patch.description !== undefined) s.description = e.patch.description;
        if (e.patch.content !== undefined) s.content = e.patch.content;
        if (e.patch.sourceEpisodeIds !== undefined)
          s.sourceEpisodeIds = [...new Set([...s.sourceEpisodeIds, ...e.patch.sourceEpisodeIds])];
        return { op: 'update', skillId: s.id, before, after: { ...s }, reason: e.reason };
      }
      case 'merge': {
        const ids = [...new Set(e.ids)];
        if (ids.length < 2) return 'merge needs two different skills';
        const parts = ids.map((id) => this.byId(id));
        const missing = ids.filter((_, i) => !parts[i]);
        if (missing.length > 0)
          return `no skill with id ${missing.map((m) => `'${m}'`).join(', ')}`;
        const found = parts.filter((p): p is Skill => p !== undefined);
        const remaining =
          this.count(e.into.category) - found.filter((f) => f.category === e.into.category).length;
        if (remaining >= this.caps[e.into.category])
          return `category '${e.into.category}' is full (${this.caps[e.into.category]} skills)`;
        const uses = found.reduce((n, f) => n + f.uses, 0);
        const sources = found.flatMap((f) => f.sourceEpisodeIds);
        const merged = this.make(
          { ...e.into, sourceEpisodeIds: [...sources, ...e.into.sourceEpisodeIds] },
          uses,
        );
        for (const f of found) this.skills.splice(this.skills.indexOf(f), 1);
        this.skills.push(merged);
        return {
          op: 'merge',
          skillId: merged.id,
          before: found.map((f) => ({ ...f })),
          after: { ...merged },
          reason: e.reason,
        };
      }
      case 'delete': {
        const s = this.byId(e.id);
        if (!s) return `no skill with id '${e.id}'`;
        if (s.uses >= PROTECTED_USES)
          return `skill '${e.id}' is heavily used (${s.uses} uses ≥ ${PROTECTED_USES}) and is kept`;
        this.skills.splice(this.skills.indexOf(s), 1);
        return { op: 'delete', skillId: s.id, before: { ...s }, after: null, reason: e.reason };
      }
    }
  }

  /** Adds recall counts (from bpe episodes) to the skills' usage. */
  recordUses(ids: string[]): void {
    for (const id of ids) {
      const s = this.byId(id);
      if (s) s.uses += 1;
    }
  }
}

function similarity(
  a: Pick<Skill, 'title' | 'content'>,
  b: Pick<Skill, 'title' | 'content'>,
): number {
  const x = words(`${a.title} ${a.content}`);
  const y = words(`${b.title} ${b.content}`);
  let inter = 0;
  for (const w of x) if (y.has(w)) inter += 1;
  const union = x.size + y.size - inter;
  return union === 0 ? 0 : inter / union;
}

/**
 * The offline consolidator: turns proposals and queued notes into edits. A proposal like an existing
 * skill (same category and title, or very similar text) updates it; otherwise it is added; when a
 * category is full the least-evidenced, least-used unprotected skill makes room if the proposal has
 * more evidence. Notes become general skills unless one already says the same.
 */
export function proposeEdits(
  bank: SkillBankState,
  drafts: SkillDraft[],
  notes: string[] = [],
): SkillEdit[] {
  const edits: SkillEdit[] = [];
  const counts = new Map<SkillCategory, number>(SKILL_CATEGORIES.map((c) => [c, bank.count(c)]));
  const deleted = new Set<string>();
  const all: SkillDraft[] = [
    ...drafts,
    ...notes.map((n) => ({
      category: 'general' as const,
      taskType: null,
      title: n.length > 60 ? `${n.slice(0, 57)}…` : n,
      description: 'Queued by the agent with note[…].',
      content: n,
      sourceEpisodeIds: [],
    })),
  ];
  for (const d of all) {
    const same = bank.skills.find(
      (s) =>
        !deleted.has(s.id) &&
        s.category === d.category &&
        // Priors differ by their object alone, so only the same title makes two the same.
        (s.title === d.title || (d.category !== 'prior' && similarity(s, d) >= 0.6)) &&
        (s.taskType ?? null) === (d.taskType ?? null),
    );
    if (same) {
      edits.push({
        op: 'update',
        id: same.id,
        patch: {
          description: d.description,
          content: d.content,
          sourceEpisodeIds: d.sourceEpisodeIds,
        },
        reason: 'same lesson seen again',
      });
      continue;
    }
    const n = counts.get(d.category) ?? 0;
    if (n >= bank.caps[d.category]) {
      const victim = bank.skills
        .filter((s) => s.category === d.category && !deleted.has(s.id) && s.uses < PROTECTED_USES)
        .sort(
          (a, b) => a.sourceEpisodeIds.length + a.uses - (b.sourceEpisodeIds.length + b.uses),
        )[0];
      if (!victim || victim.sourceEpisodeIds.length + victim.uses >= d.sourceEpisodeIds.length)
        continue;
      edits.push({
        op: 'delete',
        id: victim.id,
        reason: `makes room for '${d.title}' (more evidence)`,
      });
      deleted.add(victim.id);
      counts.set(d.category, n - 1);
    }
    edits.push({
      op: 'add',
      skill: {
        category: d.category,
        taskType: d.taskType ?? null,
        title: d.title,
        description: d.description,
        content: d.content,
        sourceEpisodeIds: d.sourceEpisodeIds,
      },
      reason:
        d.sourceEpisodeIds.length > 0
          ? `from ${d.sourceEpisodeIds.length} episode(s)`
          : 'from a note',
    });
    counts.set(d.category, (counts.get(d.category) ?? 0) + 1);
  }
  return edits;
}
