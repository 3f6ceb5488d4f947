// The EvoHarness workspace H_t = (B_t, P_t, E_t) of one episode, the meta-actions that read and
// write it, and the JSON snapshot recorded on every step (StepRecord.meta.bpe) for the studio.
import type { Json } from '../../../bridges/core/types.ts';
import { retrieve } from '../../skills/retrieve.ts';
import type { Skill } from '../../skills/types.ts';
import {
  type BeliefChange,
  type BeliefExtractor,
  BeliefStore,
  beliefExtractorFor,
} from './belief.ts';
import { META_PART, type MetaVerb } from './meta.ts';
import { Progress, type ProgressPlanner, progressPlannerFor } from './progress.ts';

export interface BpeParts {
  belief: boolean;
  progress: boolean;
  experience: boolean;
}

export const MAX_NOTES = 20;

export interface MetaOutcome {
  valid: boolean;
  feedback: string;
  /** Skills a recall returned (their ids), for usage counts. */
  retrieved?: string[];
}

export class Workspace {
  readonly belief = new BeliefStore();
  readonly progress: Progress;
  readonly notes: string[] = [];
  /** Ids of skills recalled so far (usage bookkeeping). */
  readonly recalled: string[] = [];
  private readonly extractor: BeliefExtractor;
  private readonly planner: ProgressPlanner;
  private goal = '';
  /** Changes since the last recorded step. */
  private pendingBelief: BeliefChange[] = [];
  private pendingProgress: string[] = [];

  constructor(
    readonly bridge: string,
    readonly parts: BpeParts,
    readonly skills: Skill[],
    readonly taskType: string | undefined,
    progressCap?: number,
  ) {
    this.extractor = beliefExtractorFor(bridge);
    this.planner = progressPlannerFor(bridge);
    this.progress = new Progress(progressCap);
  }

  get goalText(): string {
    return this.goal;
  }

  /** Sets (or changes, for a chain's next leg) the goal: progress restarts from its plan. */
  setGoal(goal: string): void {
    if (goal === this.goal) return;
    this.goal = goal;
    if (this.parts.progress) {
      this.progress.reset(this.planner.plan(goal));
      this.pendingProgress.push(`plan: ${this.progress.items.map((s) => s.text).join(' | ')}`);
    }
  }

  /** Belief update after an environment step; returns the sub-goals the changes show done. */
  observe(
    text: string,
    info: Parameters<BeliefExtractor['update']>[1]['info'],
    command?: string,
  ): string[] {
    const goalLine = /your task is to:\s*(.+)/i.exec(text)?.[1]?.trim();
    const changes = this.extractor.update(this.belief, {
      text,
      info,
      ...(command !== undefined ? { command } : {}),
    });
    if (goalLine) this.setGoal(goalLine.replace(/\.$/, ''));
    if (!this.parts.belief) {
      // Without Belief nothing is rendered, tracked or recorded; the store still runs underneath
      // because Progress's completion detection reads its changes.
      return this.parts.progress ? this.planner.completed(this.goal, changes, this.progress) : [];
    }
    this.pendingBelief.push(...changes);
    return this.parts.progress ? this.planner.completed(this.goal, changes, this.progress) : [];
  }

  /** Executes a well-formed meta-action against the workspace. */
  run(verb: MetaVerb, arg: string): MetaOutcome {
    const part = META_PART[verb];
    if (!this.parts[part]) {
      return {
        valid: false,
        feedback: `Invalid meta-action: ${verb}[…] is not available (${part} is off in this agent harness).`,
      };
    }
    switch (verb) {
      case 'track':
        return { valid: true, feedback: this.extractor.track(this.belief, arg) };
      case 'commit':
        return this.commit(arg);
      case 'recall':
        return this.recall(arg);
      case 'note': {
        if (this.notes.length >= MAX_NOTES) {
          return {
            valid: false,
            feedback: `Invalid meta-action: at most ${MAX_NOTES} notes per episode.`,
          };
        }
        this.notes.push(arg);
        return { valid: true, feedback: 'Noted (queued for consolidation after this batch).' };
      }
    }
  }

  private commit(arg: string): MetaOutcome {
    const added = /^new\s*:\s*(.+)$/i.exec(arg)?.[1]?.trim();
    if (added) {
      if (this.progress.items.length >= this.progress.cap) {
        return {
          valid: false,
          feedback: `Invalid meta-action: the progress list is full (${this.progress.cap} sub-goals).`,
        };
      }
      this.progress.items.push({ text: added, status: 'pending' });
      this.pendingProgress.push(`added: ${added}`);
      return { valid: true, feedback: `Sub-goal added: ${added}.\n${this.progress.render()}` };
    }
    const m = /^(.*?)\s*=\s*(pending|done)\s*$/i.exec(arg);
    const name = (m?.[1] ?? arg).trim();
    const status = (m?.[2]?.toLowerCase() ?? 'done') as 'pending' | 'done';
    const i = this.progress.find(name);
    if (i === undefined || i === 'ambiguous') {
      return {
        valid: false,
        feedback: `Invalid meta-action: commit[${arg}] names ${
          i === 'ambiguous' ? 'several sub-goals' : 'no sub-goal'
        }. Sub-goals:\n${this.progress.render()}`,
      };
    }
    const item = this.progress.items[i];
    if (!item) return { valid: false, feedback: 'Invalid meta-action: no such sub-goal.' };
    item.status = status;
    this.pendingProgress.push(`${status}: ${item.text}`);
    return { valid: true, feedback: `Sub-goal ${i + 1} is ${status}.\n${this.progress.render()}` };
  }

  private recall(query: string): MetaOutcome {
    const hits = retrieve(this.skills, `${query} ${this.goal}`, {
      k: 4,
      ...(this.taskType ? { taskType: this.taskType } : {}),
    });
    if (hits.length === 0)
      return { valid: true, feedback: 'No matching experience.', retrieved: [] };
    const ids = hits.map((h) => h.skill.id);
    for (const id of ids) if (!this.recalled.includes(id)) this.recalled.push(id);
    const text = hits
      .map((h, i) => `${i + 1}. [${h.skill.category}] ${h.skill.title}: ${h.skill.content}`)
      .join('\n');
    return { valid: true, feedback: text, retrieved: ids };
  }

  /** Recalled skills (what a scripted driver turns into policy options). */
  recalledSkills(): Skill[] {
    return this.recalled
      .map((id) => this.skills.find((s) => s.id === id))
      .filter((s): s is Skill => s !== undefined);
  }

  locate(objectType: string): { object: string; receptacle: string }[] {
    if (!this.parts.belief) return [];
    return this.extractor.locate?.(this.belief, objectType) ?? [];
  }

  render(): string {
    const out: string[] = [];
    if (this.parts.belief)
      out.push(`Belief:\n${this.extractor.render(this.belief) || 'nothing yet'}`);
    if (this.parts.progress) out.push(`Progress:\n${this.progress.render()}`);
    if (this.parts.experience) {
      const titles = this.recalledSkills().map((s) => `- ${s.title}`);
      out.push(
        `Experience: ${this.skills.length} skills in store${
          titles.length > 0 ? `; recalled:\n${titles.join('\n')}` : ' (use recall[query])'
        }${this.notes.length > 0 ? `\nQueued notes: ${this.notes.length}` : ''}`,
      );
    }
    return out.join('\n\n');
  }

  /** The workspace as JSON plus what changed since the previous recorded step. */
  snapshot(): Json {
    const changes: Json = {
      belief: this.pendingBelief.map((c) => ({ key: c.key, before: c.before, after: c.after })),
      progress: [...this.pendingProgress],
    };
    this.pendingBelief = [];
    this.pendingProgress = [];
    return {
      parts: { ...this.parts },
      belief: this.parts.belief ? this.belief.toJson() : {},
      progress: this.parts.progress ? this.progress.toJson() : [],
      experience: this.parts.experience
        ? {
            size: this.skills.length,
            recalled: this.recalledSkills().map((s) => ({
              id: s.id,
              title: s.title,
              category: s.category,
            })),
            notes: [...this.notes],
          }
        : { size: 0, recalled: [], notes: [] },
      changes,
    };
  }
}
