// SpreadsheetBench-style episodes on real .xlsx files: reset writes the task workbook into the
// episode's temp dir and loads it; tools read and write cells and ranges, add sheets and evaluate
// formulas; the verifier saves the result as .xlsx, reads it back and compares the computed values
// of the target cells with the reference solution's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { filterTasks, invalidStep, stepResult } from '../core/helpers.ts';
import {
  type Action,
  type ActionableEnv,
  EnvClosedError,
  EnvInfraError,
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
import { addr, parseCell, parseRange, rangeCells, rangeText } from './address.ts';
import { evaluateFormula, FormulaSyntaxError, parseFormula, type Scalar } from './formula.ts';
import { allTasks, findTask, type SpreadsheetTask } from './tasks.ts';
import {
  type EvaluateArgs,
  MAX_READ_CELLS,
  MAX_WRITE_CELLS,
  SnapshotZ,
  type SpreadsheetState,
  spreadsheetStateSchema,
  spreadsheetTools,
  TOOL_ARGS,
  type ToolName,
  type WriteCellArgs,
  type WriteRangeArgs,
} from './tools.ts';
import { type SheetJson, Workbook } from './workbook.ts';

export const ENV_TYPE = 'spreadsheet';
class InvalidAction extends Error {}

// Per process, each task's .xlsx is generated and read back once; episodes copy the bytes.
const inputs = new Map<string, Promise<{ bytes: Uint8Array; sheets: SheetJson[] }>>();
function taskInput(task: SpreadsheetTask) {
  let input = inputs.get(task.info.id);
  if (!input) {
    input = (async () => {
      const dir = mkdtempSync(join(tmpdir(), 'envharness-spreadsheet-'));
      try {
        const file = join(dir, 'task.xlsx');
        await task.build().writeXlsx(file);
        return { bytes: readFileSync(file), sheets: (await Workbook.readXlsx(file)).toJson() };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    })();
    inputs.set(task.info.id, input);
  }
  return input;
}

// Verdicts are a function of the workbook content: a replay or repeated evaluate() reuses them.
const verdicts = new Map<string, { matched: number; total: number }>();

// Episode temp dirs are removed on close, and on process exit for episodes never closed.
const liveDirs = new Set<string>();
let exitHooked = false;
function trackDir(dir: string): void {
  liveDirs.add(dir);
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const d of liveDirs) rmSync(d, { recursive: true, force: true });
  });
}

function show(v: Scalar): string {
  if (v === null) return '';
  if (typeof v === 'number') return String(Math.round(v * 1e9) / 1e9);
  return String(v);
}

export function sameValue(a: Scalar, b: Scalar): boolean {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
  const norm = (v: Scalar) => (v === '' ? null : v);
  return norm(a) === norm(b);
}

export class SpreadsheetEnv implements ActionableEnv {
  readonly envType = ENV_TYPE;
  private dir: string | undefined;
  private task: SpreadsheetTask | undefined;
  private wb: Workbook | undefined;
  private initial: Map<string, string> = new Map();
  private view: SpreadsheetState | undefined;
  private resetOptions: ResetOptions | undefined;
  private lastObservation: Observation = { text: 'No workbook yet: call reset with a task.' };
  private closed = false;

  async listTasks(filter?: TaskFilter): Promise<TaskInfo[]> {
    return filterTasks(
      allTasks().map((t) => t.info),
      filter,
    );
  }

  private tempDir(): string {
    if (!this.dir) {
      this.dir = mkdtempSync(join(tmpdir(), 'envharness-spreadsheet-'));
      trackDir(this.dir);
    }
    return this.dir;
  }

  async reset(options: ResetOptions): Promise<ResetResult> {
    this.assertOpen();
    const task = findTask(options.taskId);
    if (!task) throw new UnknownTaskError(ENV_TYPE, options.taskId);
    // The task file is a real .xlsx; the episode works on what reads back from it.
    const input = await taskInput(task);
    writeFileSync(join(this.tempDir(), 'task.xlsx'), input.bytes);
    this.wb = Workbook.fromJson(input.sheets);
    this.task = task;
    this.initial = this.contentMap();
    this.resetOptions = structuredClone(options);
    this.view = {
      task: task.info.id,
      sheets: this.sheetList(),
      writes: 0,
      formulasWritten: 0,
      changed: [],
      reads: 0,
      submitted: false,
      invalidActions: 0,
    };
    this.lastObservation = {
      text: `${task.info.goal}\n\nWorkbook task.xlsx: ${this.sheetsText()}. Tools: list_sheets, read_range, write_cell, write_range, add_sheet, evaluate, submit.`,
    };
    return { observation: this.lastObservation, info: {} };
  }

  private contentMap(): Map<string, string> {
    const out = new Map<string, string>();
    for (const s of this.wb!.sheets)
      for (const [a, c] of s.cells)
        out.set(
          `${s.name}!${a}`,
          c.formula !== undefined ? `=${c.formula}` : JSON.stringify(c.value),
        );
    return out;
  }

  private sheetList() {
    return this.wb!.sheets.map((s) => ({ name: s.name, used: this.wb!.usedRange(s.name) }));
  }

  private sheetsText(): string {
    return this.sheetList()
      .map((s) => `${s.name} (${s.used})`)
      .join(', ');
  }

  async step(action: Action): Promise<StepResult> {
    this.assertOpen();
    if (!this.view || !this.wb)
      return this.invalid('No workbook yet: call reset with a task first.');
    if (this.view.submitted)
      return this.invalid('The workbook was already submitted; reset to start again.', true);
    if (!(action.name in TOOL_ARGS))
      return this.invalid(
        `Unknown tool '${action.name}'. Tools: ${Object.keys(TOOL_ARGS).join(', ')}.`,
      );
    const name = action.name as ToolName;
    const parsed = TOOL_ARGS[name].safeParse(action.args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue && issue.path.length > 0 ? `'${issue.path.join('.')}': ` : '';
      return this.invalid(`Bad arguments for ${name}: ${where}${issue?.message ?? 'invalid'}.`);
    }
    const args = parsed.data as Record<string, unknown>;
    try {
      switch (name) {
        case 'list_sheets':
          return this.ok(`Sheets: ${this.sheetsText()}.`);
        case 'read_range':
          return this.ok(this.readRange(args.range as string));
        case 'write_cell':
          return this.ok(this.writeCell(args as z.infer<typeof WriteCellArgs>));
        case 'write_range':
          return this.ok(this.writeRange(args as z.infer<typeof WriteRangeArgs>));
        case 'add_sheet':
          return this.ok(this.addSheet(args.name as string));
        case 'evaluate':
          return this.ok(this.evaluateText(args as z.infer<typeof EvaluateArgs>));
        case 'submit':
          return await this.submit();
      }
    } catch (error) {
      if (error instanceof InvalidAction) return this.invalid(error.message);
      throw error;
    }
  }

  private sheetName(name: string | undefined): string {
    const wb = this.wb!;
    if (name === undefined) return wb.sheets[0]!.name;
    const s = wb.sheet(name);
    if (!s)
      throw new InvalidAction(
        `No sheet '${name}'. Sheets: ${wb.sheets.map((x) => x.name).join(', ')}.`,
      );
    return s.name;
  }

  private readRange(text: string): string {
    const range = parseRange(text);
    if (!range) throw new InvalidAction(`'${text}' is not a range like Sales!A1:D10.`);
    const sheet = this.sheetName(range.sheet);
    const cells = rangeCells(range);
    if (cells.length > MAX_READ_CELLS)
      throw new InvalidAction(
        `${cells.length} cells is too many: read at most ${MAX_READ_CELLS} at a time.`,
      );
    this.view = { ...this.view!, reads: this.view!.reads + 1 };
    const lines = [
      `${rangeText({ ...range, sheet })} (row | ${Array.from({ length: range.end.col - range.start.col + 1 }, (_, i) => addr(range.start.col + i, 1).replace(/\d+$/, '')).join(' | ')})`,
    ];
    for (let row = range.start.row; row <= range.end.row; row++) {
      const values: string[] = [];
      for (let col = range.start.col; col <= range.end.col; col++) {
        const raw = this.wb!.raw(sheet, addr(col, row));
        const v = show(this.wb!.value(sheet, col, row));
        values.push(raw?.formula !== undefined ? `${v} (=${raw.formula})` : v);
      }
      lines.push(`${row} | ${values.join(' | ')}`);
    }
    return lines.join('\n');
  }

  private put(
    sheet: string,
    a: string,
    value: Scalar | undefined,
    formula: string | undefined,
  ): boolean {
    let f = formula;
    if (f === undefined && typeof value === 'string' && value.startsWith('=')) f = value;
    if (f !== undefined) {
      try {
        parseFormula(f);
      } catch (error) {
        if (error instanceof FormulaSyntaxError)
          throw new InvalidAction(
            `Cannot read the formula '${f}' for ${sheet}!${a}: ${error.message}.`,
          );
        throw error;
      }
      this.wb!.set(sheet, a, { value: null, formula: f.replace(/^=/, '') });
      return true;
    }
    this.wb!.set(sheet, a, value === null || value === undefined ? null : { value });
    return false;
  }

  private afterWrite(cells: number, formulas: number): void {
    const now = this.contentMap();
    const keys = new Set([...now.keys(), ...this.initial.keys()]);
    const changed = [...keys].filter((k) => now.get(k) !== this.initial.get(k)).sort();
    this.view = {
      ...this.view!,
      sheets: this.sheetList(),
      writes: this.view!.writes + cells,
      formulasWritten: this.view!.formulasWritten + formulas,
      changed: changed.slice(0, 200),
    };
  }

  private writeCell(args: z.infer<typeof WriteCellArgs>): string {
    const ref = parseCell(args.cell);
    if (!ref) throw new InvalidAction(`'${args.cell}' is not a cell like Sales!D2.`);
    if ((args.value === undefined) === (args.formula === undefined))
      throw new InvalidAction('Give exactly one of value or formula.');
    const sheet = this.sheetName(ref.sheet);
    const a = addr(ref.col, ref.row);
    const isFormula = this.put(sheet, a, args.value, args.formula);
    this.afterWrite(1, isFormula ? 1 : 0);
    return `${sheet}!${a} = ${show(this.wb!.value(sheet, ref.col, ref.row))}${isFormula ? ` (=${this.wb!.raw(sheet, a)!.formula})` : ''}`;
  }

  private writeRange(args: z.infer<typeof WriteRangeArgs>): string {
    const ref = parseCell(args.start);
    if (!ref) throw new InvalidAction(`'${args.start}' is not a cell like Sales!D2.`);
    const count = args.values.reduce((s, r) => s + r.length, 0);
    if (count > MAX_WRITE_CELLS)
      throw new InvalidAction(`Write at most ${MAX_WRITE_CELLS} cells at a time.`);
    const sheet = this.sheetName(ref.sheet);
    // Validate every formula before writing anything: a bad write leaves the sheet as it was.
    for (const row of args.values)
      for (const v of row)
        if (typeof v === 'string' && v.startsWith('=')) {
          try {
            parseFormula(v);
          } catch (error) {
            if (error instanceof FormulaSyntaxError)
              throw new InvalidAction(
                `Cannot read the formula '${v}': ${error.message}. Nothing was written.`,
              );
            throw error;
          }
        }
    let formulas = 0;
    args.values.forEach((row, i) => {
      row.forEach((v, j) => {
        if (this.put(sheet, addr(ref.col + j, ref.row + i), v, undefined)) formulas += 1;
      });
    });
    this.afterWrite(count, formulas);
    const width = Math.max(...args.values.map((r) => r.length));
    const end = addr(ref.col + Math.max(0, width - 1), ref.row + args.values.length - 1);
    return `Wrote ${count} cells to ${sheet}!${addr(ref.col, ref.row)}:${end}${formulas > 0 ? ` (${formulas} formulas)` : ''}.`;
  }

  private addSheet(name: string): string {
    if (this.wb!.sheet(name)) throw new InvalidAction(`A sheet named '${name}' already exists.`);
    if (this.wb!.sheets.length >= 10) throw new InvalidAction('At most 10 sheets.');
    this.wb!.addSheet(name);
    this.afterWrite(0, 0);
    return `Added sheet ${name}. Sheets: ${this.sheetsText()}.`;
  }

  private evaluateText(args: z.infer<typeof EvaluateArgs>): string {
    try {
      parseFormula(args.formula);
    } catch (error) {
      if (error instanceof FormulaSyntaxError)
        throw new InvalidAction(`Cannot read the formula '${args.formula}': ${error.message}.`);
      throw error;
    }
    const sheet = this.sheetName(args.sheet);
    const v = evaluateFormula(args.formula, this.wb!.context(sheet));
    return `${args.formula.startsWith('=') ? args.formula : `=${args.formula}`} = ${show(v)}`;
  }

  private async submit(): Promise<StepResult> {
    this.view = { ...this.view!, submitted: true };
    const evaluation = await this.evaluate();
    this.lastObservation = { text: `Submitted the workbook (${this.view.writes} cells written).` };
    return stepResult(this.lastObservation, {
      reward: evaluation.success ? 1 : 0,
      terminated: true,
    });
  }

  observe(): Observation {
    return this.lastObservation;
  }

  /**
   * Stage's callback after its set-up: writes, reads and invalid actions so far were the set-up's,
   * not the agent's (the cells it wrote stay written).
   */
  afterSetup(): void {
    if (!this.view) return;
    this.view = { ...this.view, writes: 0, formulasWritten: 0, reads: 0, invalidActions: 0 };
  }

  /** Saves result.xlsx, reads it back, and compares target cells with the reference solution. */
  async evaluate(): Promise<Evaluation> {
    const task = this.task;
    const view = this.view;
    if (!task || !view || !this.wb) return { success: false, score: 0, metrics: {} };
    const key = `${task.info.id}|${JSON.stringify(this.wb.toJson())}`;
    let counts = verdicts.get(key);
    if (!counts) {
      const file = join(this.tempDir(), 'result.xlsx');
      await this.wb.writeXlsx(file);
      const result = await Workbook.readXlsx(file);
      const reference = task.build();
      task.solve(reference);
      counts = { matched: 0, total: 0 };
      for (const target of task.targets) {
        const range = parseRange(target)!;
        const sheet = range.sheet!;
        for (const c of rangeCells(range)) {
          counts.total += 1;
          const s = result.sheet(sheet);
          const got = s ? result.value(s.name, c.col, c.row) : '#REF!';
          if (sameValue(got, reference.value(sheet, c.col, c.row))) counts.matched += 1;
        }
      }
      if (verdicts.size >= 500) verdicts.delete(verdicts.keys().next().value as string);
      verdicts.set(key, counts);
    }
    const { matched, total } = counts;
    const success = total > 0 && matched === total;
    return {
      success,
      score: total > 0 ? matched / total : 0,
      metrics: {
        cellsMatched: matched,
        cellsTotal: total,
        writes: view.writes,
        formulasWritten: view.formulasWritten,
        submitted: view.submitted ? 1 : 0,
        invalidActions: view.invalidActions,
      },
    };
  }

  getEnvState(): Json {
    return this.view ? (structuredClone(this.view) as unknown as Json) : null;
  }

  stateSchema(): JsonSchema {
    return spreadsheetStateSchema;
  }

  tools(): ToolSpec[] {
    return spreadsheetTools;
  }

  async saveState(): Promise<EnvSnapshot> {
    this.assertOpen();
    if (!this.view || !this.resetOptions || !this.wb)
      throw new EnvInfraError('spreadsheet: nothing to save before reset');
    return {
      envType: ENV_TYPE,
      reset: structuredClone(this.resetOptions),
      state: {
        view: structuredClone(this.view) as unknown as Json,
        observation: this.lastObservation.text,
        sheets: this.wb.toJson() as unknown as Json,
      },
    };
  }

  async restore(snapshot: EnvSnapshot): Promise<void> {
    if (snapshot.envType !== ENV_TYPE)
      throw new EnvInfraError(`spreadsheet: cannot restore a '${snapshot.envType}' snapshot`);
    const parsed = SnapshotZ.safeParse(snapshot.state);
    if (!parsed.success)
      throw new EnvInfraError(`spreadsheet: invalid snapshot: ${parsed.error.issues[0]?.message}`);
    await this.reset(snapshot.reset);
    this.wb = Workbook.fromJson(parsed.data.sheets as SheetJson[]);
    this.view = structuredClone(parsed.data.view);
    this.lastObservation = { text: parsed.data.observation };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.dir) {
      rmSync(this.dir, { recursive: true, force: true });
      liveDirs.delete(this.dir);
    }
    this.dir = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new EnvClosedError(ENV_TYPE);
  }

  private ok(text: string): StepResult {
    this.lastObservation = { text };
    return stepResult(this.lastObservation);
  }

  private invalid(message: string, terminated = false): StepResult {
    if (this.view && !this.view.submitted)
      this.view = { ...this.view, invalidActions: this.view.invalidActions + 1 };
    this.lastObservation = { text: message };
    return invalidStep(this.lastObservation, { terminated });
  }
}
