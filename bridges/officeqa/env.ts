// The officeqa environment: one question over the office corpus, answered with list_documents /
// search / read / calculate / answer. Pages are the text the real parsers extract from the files
// (extract.ts); the verifier scores the answer against the computed gold (scoring.ts).
import { invalidStep, stepResult } from '../core/helpers.ts';
import {
  type Action,
  type ActionableEnv,
  EnvClosedError,
  type EnvSnapshot,
  type Evaluation,
  type Json,
  type JsonSchema,
  type Observation,
  type ResetOptions,
  type ResetResult,
  type StepResult,
  type TaskFilter,
  type TaskInfo,
  type ToolSpec,
  UnknownTaskError,
} from '../core/types.ts';
import { corpus } from './corpus.ts';
import { allPassages, documentPages } from './extract.ts';
import { score, type Verdict } from './scoring.ts';
import { findTask, listOfficeqaTasks, type OfficeqaTask } from './tasks.ts';
import {
  calculate,
  ENV_TYPE,
  type OfficeqaState,
  officeqaStateSchema,
  officeqaTools,
  rank,
  Schemas,
  SnapshotSchema,
  type ToolName,
} from './tools.ts';

export type { OfficeqaState } from './tools.ts';

const settings = { tolerance: 1e-2 };

/** The default relative tolerance of the numeric match (a reset option `tolerance` overrides it). */
export function configureOfficeqa(o: Partial<typeof settings>): void {
  Object.assign(settings, o);
}

type PageRef = { document: string; page: number };

export class OfficeQaEnv implements ActionableEnv {
  readonly envType = ENV_TYPE;
  private task: OfficeqaTask | undefined;
  private resetOptions: ResetOptions | undefined;
  private tolerance = settings.tolerance;
  private closed = false;
  private actions: Action[] = [];
  /** How many of `actions` a Stage's set-up had made when it called afterSetup (snapshots). */
  private setupAt: number | undefined;
  private view: OfficeqaState | undefined;
  private lastObservation: Observation = { text: 'No episode yet: call reset with a task.' };

  async listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return listOfficeqaTasks(filter);
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    this.assertOpen();
    const task = findTask(options.taskId);
    if (!task) throw new UnknownTaskError(ENV_TYPE, options.taskId);
    const tol = options.options?.tolerance;
    this.tolerance = typeof tol === 'number' && tol >= 0 && tol < 1 ? tol : settings.tolerance;
    this.task = task;
    this.resetOptions = {
      taskId: options.taskId,
      seed: options.seed,
      ...(options.options ? { options: structuredClone(options.options) } : {}),
    };
    this.actions = [];
    this.setupAt = undefined;
    this.view = {
      task: task.info.id,
      reads: [],
      searches: [],
      calculations: 0,
      answer: null,
      verdict: null,
      steps: 0,
      invalidActions: 0,
      done: false,
    };
    const files = await corpus();
    this.lastObservation = {
      text: `Question: ${task.info.goal}\n\nThe corpus has ${files.length} documents (list_documents shows them). Find the figures, then call answer with the value and its unit.`,
    };
    return { observation: this.lastObservation, info: {} };
  }

  async step(action: Action): Promise<StepResult> {
    this.assertOpen();
    const view = this.view;
    const task = this.task;
    if (!view || !task) return this.invalid('No episode yet: call reset with a task first.');
    if (view.done) return this.invalid('The episode is over: the answer was given.', true, action);
    const name = action.name as ToolName;
    const schema = Schemas[name];
    if (!schema)
      return this.invalid(
        `unknown tool '${action.name}'. Tools: ${Object.keys(Schemas).join(', ')}.`,
        false,
        action,
      );
    const parsed = schema.safeParse(action.args ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return this.invalid(
        `${action.name}: ${issue?.path.join('.') || 'arguments'}: ${issue?.message ?? 'invalid'}.`,
        false,
        action,
      );
    }
    const args = parsed.data as Record<string, unknown>;
    this.actions.push(structuredClone(action));
    const next = { ...view, steps: view.steps + 1 };
    switch (name) {
      case 'list_documents': {
        const files = await corpus();
        const lines = await Promise.all(
          files.map(
            async (f) =>
              `${f.name} (${f.kind.toUpperCase()}, ${(await documentPages(f.name))?.length ?? 0} pages): ${f.title}`,
          ),
        );
        this.view = next;
        return this.ok(`Documents:\n${lines.join('\n')}`);
      }
      case 'search': {
        const query = args.query as string;
        const hits = rank(await allPassages(), query);
        this.view = { ...next, searches: [...view.searches, query] };
        if (hits.length === 0) return this.ok(`No passage matches "${query}".`);
        const refs = hits.map((h) => ({ document: h.document, page: h.page }));
        return this.ok(
          `Results for "${query}":\n${hits.map((h, i) => `${i + 1}. ${h.document}, page ${h.page}: ${h.text}`).join('\n')}`,
          refs,
        );
      }
      case 'read': {
        const document = args.document as string;
        const page = args.page as number;
        const pages = await documentPages(document);
        if (!pages) {
          this.view = view;
          this.actions.pop();
          return this.invalid(
            `there is no document '${document}' (list_documents shows the names).`,
            false,
            action,
          );
        }
        if (page > pages.length) {
          this.view = view;
          this.actions.pop();
          return this.invalid(
            `${document} has ${pages.length} pages; page ${page} does not exist.`,
            false,
            action,
          );
        }
        this.view = { ...next, reads: [...view.reads, { document, page }] };
        return this.ok(`${document}, page ${page} of ${pages.length}:\n${pages[page - 1]}`, [
          { document, page },
        ]);
      }
      case 'calculate': {
        try {
          const value = calculate(args.expression as string);
          this.view = { ...next, calculations: view.calculations + 1 };
          return this.ok(`${args.expression} = ${Number(value.toPrecision(12))}`);
        } catch (error) {
          this.view = view;
          this.actions.pop();
          return this.invalid(`calculate: ${(error as Error).message}.`, false, action);
        }
      }
      case 'answer': {
        const text = args.text as string;
        const verdict = score(text, task.gold, this.tolerance);
        this.view = { ...next, answer: text, verdict, done: true };
        this.lastObservation = { text: `Answer recorded: ${text}` };
        return stepResult(this.lastObservation, {
          reward: verdict.success ? 1 : 0,
          terminated: true,
          info: {},
        });
      }
    }
  }

  observe(): Observation {
    return this.lastObservation;
  }

  async evaluate(): Promise<Evaluation> {
    const view = this.view;
    const counters = { steps: view?.steps ?? 0, invalidActions: view?.invalidActions ?? 0 };
    const v: Verdict | null = view?.verdict ?? null;
    if (!view || !v)
      return {
        success: false,
        score: 0,
        metrics: { answered: 0, em: 0, f1: 0, numeric: 0, ...counters },
      };
    return {
      success: v.success,
      score: v.success ? 1 : 0,
      metrics: {
        answered: 1,
        em: v.em,
        f1: v.f1,
        numeric: v.numeric,
        tolerance: v.tolerance,
        // the rule that decided: 1 for the one that did
        decided_by_exact_match: v.rule === 'exact_match' ? 1 : 0,
        decided_by_numeric_tolerance: v.rule === 'numeric_tolerance' ? 1 : 0,
        pages_read: view.reads.length,
        searches: view.searches.length,
        calculations: view.calculations,
        ...counters,
      },
    };
  }

  getEnvState(): Json {
    return this.view ? structuredClone(this.view) : null;
  }

  stateSchema(): JsonSchema {
    return officeqaStateSchema;
  }

  tools(): ToolSpec[] {
    return officeqaTools;
  }

  async saveState(): Promise<EnvSnapshot> {
    this.assertOpen();
    if (!this.resetOptions) throw new Error('officeqa: nothing to save before reset');
    return {
      envType: ENV_TYPE,
      reset: structuredClone(this.resetOptions),
      actions: structuredClone(this.actions),
      ...(this.view
        ? {
            state: JSON.parse(
              JSON.stringify({
                view: this.view,
                observation: this.lastObservation,
                ...(this.setupAt !== undefined ? { setupAt: this.setupAt } : {}),
              }),
            ) as Json,
          }
        : {}),
    };
  }

  /** Episodes are cheap: reset, then replay the actions (the saved view is checked against the replay). */
  async restore(snapshot: EnvSnapshot): Promise<void> {
    const parsed = SnapshotSchema.safeParse(snapshot);
    if (!parsed.success)
      throw new Error(
        `officeqa: invalid snapshot: ${parsed.error.issues[0]?.message ?? 'bad shape'}`,
      );
    await this.reset(snapshot.reset);
    const setupAt = parsed.data.state?.setupAt;
    for (const [i, action] of (snapshot.actions ?? []).entries()) {
      if (i === setupAt) this.afterSetup();
      await this.step(action);
    }
    if (setupAt !== undefined && setupAt >= (snapshot.actions ?? []).length) this.afterSetup();
  }

  /** After a Stage's set-up: its steps and invalid actions are not the agent's (evaluate's counters). */
  afterSetup(): void {
    if (!this.view) return;
    this.setupAt = this.actions.length;
    this.view = { ...this.view, steps: 0, invalidActions: 0 };
  }

  /** The question and the last page or result shown, for Stage `intro: "state"`. */
  describeState(): Observation {
    const q = this.task ? `Question: ${this.task.info.goal}` : this.lastObservation.text;
    return this.view && this.view.steps > 0
      ? { ...this.lastObservation, text: `${q}\n\n${this.lastObservation.text}` }
      : this.lastObservation;
  }

  /** The oracle: answer with the computed gold (from any state before the answer). */
  async solve(): Promise<Action[] | undefined> {
    if (!this.task || !this.view) return undefined;
    if (this.view.done) return this.view.verdict?.success ? [] : undefined;
    const unit = this.task.unit === 'percent' ? '' : ` ${this.task.unit}`;
    return [{ name: 'answer', args: { text: `${this.task.gold}${unit}` } }];
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new EnvClosedError(ENV_TYPE);
  }

  private ok(text: string, refs?: PageRef[]): StepResult {
    this.lastObservation = { text, ...(refs ? { data: { refs } } : {}) };
    return stepResult(this.lastObservation);
  }

  private invalid(reason: string, terminated = false, action?: Action): StepResult {
    if (action) this.actions.push(structuredClone(action));
    if (this.view && !this.view.done)
      this.view = {
        ...this.view,
        steps: this.view.steps + 1,
        invalidActions: this.view.invalidActions + 1,
      };
    this.lastObservation = { text: `Invalid action: ${reason}` };
    return invalidStep(this.lastObservation, { terminated });
  }
}
