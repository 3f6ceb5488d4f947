// The 24 game as an ActionableEnv: combine two numbers of the current list into one until one
// number remains; success iff it is exactly 24 (exact rationals, so 8 / (3 - 8/3) counts).
import { z } from 'zod';
import { filterTasks, invalidStep, stepResult } from '../core/helpers.ts';
import { zodToJsonSchema } from '../core/schema.ts';
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
  type StepInfo,
  type StepResult,
  type TaskFilter,
  type TaskInfo,
  type ToolSpec,
  UnknownTaskError,
} from '../core/types.ts';
import {
  apply,
  equals,
  format,
  isOp,
  NUMBER_PATTERN,
  OPS,
  type Op,
  parse,
  type Rational,
  rat,
} from './rational.ts';
import { solve, TARGET } from './solver.ts';
import { allTasks, findTask } from './tasks.ts';

export const ENV_TYPE = 'toy24';
export const COMBINE = 'combine';
/** The plain-text form of `combine`: `{ expression: "8 / 3" }` (see parseExpression). */
export const TEXT_TOOL = { name: COMBINE, arg: 'expression' } as const;

const NumberText = z.string().regex(new RegExp(NUMBER_PATTERN));

export const Toy24StateSchema = z.strictObject({
  task: z.string().describe('task id, the four starting numbers joined by dashes'),
  initial: z.array(NumberText).describe('the four starting numbers'),
  numbers: z
    .array(NumberText)
    .describe('numbers still available, as integers or fractions like "8/3"'),
  history: z
    .array(z.strictObject({ a: NumberText, op: z.enum(OPS), b: NumberText, result: NumberText }))
    .describe('combinations made so far, in order'),
  invalidActions: z.number().int().min(0).describe('actions rejected so far'),
  done: z.boolean().describe('true once a single number remains'),
  value: NumberText.nullable().describe('the final number once done, else null'),
});
export type Toy24State = z.infer<typeof Toy24StateSchema>;

const NumberArg = z
  .union([z.number(), z.string()])
  .describe('a number from the current list: an integer like 8 or a fraction like "8/3"');

export const CombineArgsSchema = z.strictObject({
  a: NumberArg,
  op: z.enum(OPS).describe('the operation: + - * /'),
  b: NumberArg,
});

export const toy24Tools: ToolSpec[] = [
  {
    name: COMBINE,
    description:
      'Combine two numbers from the current list: both are removed and `a op b` is added. ' +
      'When one number remains the game ends; you win if it is exactly 24.',
    parameters: zodToJsonSchema(CombineArgsSchema),
  },
];

export const toy24StateSchema: JsonSchema = zodToJsonSchema(Toy24StateSchema);

const SnapshotStateSchema = z.strictObject({
  view: Toy24StateSchema,
  observation: z.string(),
  /** Combinations a Stage made before afterSetup(): not counted in the `moves` metric. */
  setupMoves: z.number().int().min(0).optional(),
});

/**
 * Plain text for the text tool: `a op b` with numbers like `8`, `-4`, `8/3` and op one of
 * + - * / (also x, ×, ÷). A fraction is written without spaces (`8/3`); division between two
 * numbers may be written either way (`8 / 3` or `8/3 / 2`). Returns undefined when the text is not of
 * that form.
 */
export function parseExpression(text: string): { a: string; op: Op; b: string } | undefined {
  const m = /^\s*(-?\d+(?:\/\d+)?)\s*([-+*/x×÷])\s*(-?\d+(?:\/\d+)?)\s*$/u.exec(text);
  if (!m) return undefined;
  const rawOp = m[2]!;
  const op: Op = rawOp === 'x' || rawOp === '×' ? '*' : rawOp === '÷' ? '/' : (rawOp as Op);
  return { a: m[1]!, op, b: m[3]! };
}

function describeNumber(value: Json | undefined): string {
  return typeof value === 'string' ? `'${value}'` : (JSON.stringify(value) ?? 'nothing');
}

/** The operands of a combine call (structured or an `expression`), or why it cannot be read. */
function readMove(action: Action): { a: Rational; op: Op; b: Rational } | string {
  let rawA: Json | undefined = action.args.a;
  let rawOp: Json | undefined = action.args.op;
  let rawB: Json | undefined = action.args.b;
  if (typeof action.args.expression === 'string' && rawA === undefined && rawB === undefined) {
    const parsed = parseExpression(action.args.expression);
    if (!parsed) {
      return `Cannot read '${action.args.expression}': write two numbers and an operation, e.g. "8 - 4" or "8 / 8/3".`;
    }
    ({ a: rawA, op: rawOp, b: rawB } = parsed);
  }
  if (!isOp(rawOp)) return `Unknown operation ${describeNumber(rawOp)}: use one of + - * /.`;
  const a = toRational(rawA);
  const b = toRational(rawB);
  if (!a || !b) {
    const bad = !a ? rawA : rawB;
    return `${describeNumber(bad)} is not a number: give an integer like 8 or a fraction like "8/3".`;
  }
  return { a, op: rawOp, b };
}

function toRational(value: Json | undefined): Rational | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? rat(value) : undefined;
  if (typeof value === 'string') return parse(value);
  return undefined;
}

function listText(numbers: readonly string[]): string {
  return numbers.join(' ');
}

export class Toy24Env implements ActionableEnv {
  readonly envType = ENV_TYPE;
  private view: Toy24State | undefined;
  private numbers: Rational[] = [];
  private reset_: ResetOptions | undefined;
  private lastObservation: Observation = { text: 'No game yet: call reset with a task.' };
  private closed = false;
  /** Moves made by a Stage's set-up (afterSetup): the `moves` metric counts only the agent's. */
  private setupMoves = 0;

  async listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return filterTasks(allTasks(), filter);
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    this.assertOpen();
    const task = findTask(options.taskId);
    if (!task) throw new UnknownTaskError(ENV_TYPE, options.taskId);
    const initial = options.taskId.split('-');
    this.setupMoves = 0;
    this.reset_ = {
      taskId: options.taskId,
      seed: options.seed,
      ...(options.options ? { options: options.options } : {}),
    };
    this.view = {
      task: task.id,
      initial,
      numbers: [...initial],
      history: [],
      invalidActions: 0,
      done: false,
      value: null,
    };
    this.numbers = initial.map((n) => rat(Number(n)));
    this.lastObservation = {
      text:
        `Numbers: ${listText(initial)}. Goal: make 24 using every number exactly once. ` +
        'Combine two numbers at a time with + - * / (tool combine {a, op, b}, or type e.g. "8 - 4"); ' +
        'the result replaces them. When one number remains the game ends.',
      data: { numbers: [...initial] },
    };
    return { observation: this.lastObservation, info: this.info() };
  }

  async step(action: Action): Promise<StepResult> {
    this.assertOpen();
    const view = this.view;
    if (!view) return this.invalid('No game yet: call reset with a task first.');
    if (view.done) {
      return this.invalid(
        `The game is over (final number ${view.value}); reset to play again.`,
        true,
      );
    }
    if (action.name !== COMBINE) {
      return this.invalid(
        `Unknown tool '${action.name}'. The only tool is combine {a, op, b}, e.g. combine {"a": 8, "op": "-", "b": 4}.`,
      );
    }
    const operands = readMove(action);
    if (typeof operands === 'string') return this.invalid(operands);
    const { a, op: rawOp, b } = operands;
    const i = this.numbers.findIndex((n) => equals(n, a));
    const j = this.numbers.findIndex((n, k) => k !== i && equals(n, b));
    if (i < 0 || j < 0) {
      const missing = i < 0 ? a : b;
      const twice = i >= 0 && equals(a, b);
      return this.invalid(
        twice
          ? `${format(a)} appears only once in the numbers (${listText(view.numbers)}).`
          : `${format(missing)} is not among the numbers (${listText(view.numbers)}).`,
      );
    }
    const result = apply(a, rawOp, b);
    if (!result)
      return this.invalid(`Division by zero (${format(a)} / ${format(b)}) is not allowed.`);

    this.numbers = [...this.numbers.filter((_, k) => k !== i && k !== j), result];
    const numbers = this.numbers.map(format);
    const done = numbers.length === 1;
    const solved = done && equals(result, TARGET);
    this.view = {
      ...view,
      numbers,
      history: [...view.history, { a: format(a), op: rawOp, b: format(b), result: format(result) }],
      done,
      value: done ? format(result) : null,
    };
    const move = `${format(a)} ${rawOp} ${format(b)} = ${format(result)}.`;
    const ending = !done
      ? ''
      : solved
        ? ' You made 24!'
        : ` The game is over: the last number is ${format(result)}, not 24.`;
    this.lastObservation = {
      text: `${move} Numbers: ${listText(numbers)}.${ending}`,
      data: { numbers },
    };
    return stepResult(this.lastObservation, {
      reward: solved ? 1 : 0,
      terminated: done,
      info: this.info(),
    });
  }

  observe(): Observation {
    return this.lastObservation;
  }

  /** Stage's callback after its set-up: the moves and invalid actions so far are not the agent's. */
  afterSetup(): void {
    if (!this.view) return;
    this.setupMoves = this.view.history.length;
    this.view = { ...this.view, invalidActions: 0 };
  }

  async evaluate(): Promise<Evaluation> {
    const view = this.view;
    const success = view?.done === true && view.value === format(TARGET);
    return {
      success,
      score: success ? 1 : 0,
      metrics: {
        moves: (view?.history.length ?? 0) - this.setupMoves,
        invalidActions: view?.invalidActions ?? 0,
        remaining: view?.numbers.length ?? 0,
      },
    };
  }

  getEnvState(): Json {
    return this.view ? structuredClone(this.view) : null;
  }

  /** The oracle capability: one sequence of moves from the current numbers to 24 (solver.ts). */
  async solve(): Promise<Action[] | undefined> {
    const view = this.view;
    if (!view) return undefined;
    if (view.done) return view.value === format(TARGET) ? [] : undefined;
    const operand = (r: Rational): Json => (r.d === 1 ? r.n : format(r));
    return solve(this.numbers)?.map((m) => ({
      name: COMBINE,
      args: { a: operand(m.a), op: m.op, b: operand(m.b) },
    }));
  }

  stateSchema(): JsonSchema {
    return toy24StateSchema;
  }

  tools(): ToolSpec[] {
    return toy24Tools;
  }

  async saveState(): Promise<EnvSnapshot> {
    this.assertOpen();
    if (!this.view || !this.reset_) throw new Error('toy24: nothing to save before reset');
    return {
      envType: ENV_TYPE,
      reset: structuredClone(this.reset_),
      state: {
        view: structuredClone(this.view),
        observation: this.lastObservation.text,
        ...(this.setupMoves > 0 ? { setupMoves: this.setupMoves } : {}),
      },
    };
  }

  /** Restores a snapshot taken by saveState (used by the bridge's fromState). */
  restore(snapshot: EnvSnapshot): void {
    if (snapshot.envType !== ENV_TYPE) {
      throw new Error(`toy24: cannot restore a '${snapshot.envType}' snapshot`);
    }
    const parsed = SnapshotStateSchema.safeParse(snapshot.state);
    if (!parsed.success) {
      throw new Error(
        `toy24: invalid snapshot state: ${parsed.error.issues[0]?.message ?? 'bad shape'}`,
      );
    }
    const { view, observation, setupMoves } = parsed.data;
    if (!findTask(view.task) || view.task !== snapshot.reset.taskId) {
      throw new UnknownTaskError(ENV_TYPE, snapshot.reset.taskId);
    }
    this.reset_ = structuredClone(snapshot.reset);
    this.view = structuredClone(view);
    this.setupMoves = Math.min(setupMoves ?? 0, view.history.length);
    this.numbers = view.numbers.map((n) => parse(n) ?? rat(0));
    this.lastObservation = { text: observation, data: { numbers: [...view.numbers] } };
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new EnvClosedError(ENV_TYPE);
  }

  /** What may be typed next: every distinct `a op b` on the current numbers (one order for + and *). */
  admissibleCommands(): string[] {
    if (!this.view || this.view.done) return [];
    const seen = new Set<string>();
    const out: string[] = [];
    this.numbers.forEach((a, i) => {
      this.numbers.forEach((b, j) => {
        if (i === j) return;
        for (const op of OPS) {
          if ((op === '+' || op === '*') && j < i) continue;
          if (op === '/' && b.n === 0) continue;
          const text = `${format(a)} ${op} ${format(b)}`;
          if (!seen.has(text)) {
            seen.add(text);
            out.push(text);
          }
        }
      });
    });
    return out;
  }

  private info(extra: StepInfo = {}): StepInfo {
    return { ...extra, admissibleCommands: this.admissibleCommands() };
  }

  private invalid(message: string, terminated = false): StepResult {
    if (this.view && !this.view.done)
      this.view = { ...this.view, invalidActions: this.view.invalidActions + 1 };
    const numbers = this.view?.numbers;
    const text =
      numbers && !this.view?.done
        ? `Invalid move: ${message} Numbers: ${listText(numbers)}.`
        : `Invalid move: ${message}`;
    this.lastObservation = { text, ...(numbers ? { data: { numbers: [...numbers] } } : {}) };
    return invalidStep(this.lastObservation, { terminated, info: this.info() });
  }
}
