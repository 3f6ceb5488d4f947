// The spreadsheet bridge's surface as data: tool argument schemas (zod, so every call is validated),
// the LLM tool list, the state view's schema and the snapshot's.
import { z } from 'zod';
import { zodToJsonSchema } from '../core/schema.ts';
import type { JsonSchema, ToolSpec } from '../core/types.ts';

export const MAX_READ_CELLS = 600;
export const MAX_WRITE_CELLS = 600;

export const CellValue = z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]);
export const ListSheetsArgs = z.strictObject({});
export const ReadRangeArgs = z.strictObject({
  range: z.string().min(2).max(60).describe('e.g. Sales!A1:D10, or A1:D10 on the first sheet'),
});
export const WriteCellArgs = z.strictObject({
  cell: z.string().min(2).max(60).describe('e.g. Sales!D2'),
  value: CellValue.optional().describe(
    'a number, text, or null to clear; text starting with = is a formula',
  ),
  formula: z.string().min(1).max(1000).optional().describe('a formula such as =B2+C2'),
});
export const WriteRangeArgs = z.strictObject({
  start: z.string().min(2).max(60).describe('top-left cell, e.g. Sales!D2'),
  values: z
    .array(z.array(CellValue).max(50))
    .min(1)
    .max(500)
    .describe('rows of values; text starting with = is a formula'),
});
export const AddSheetArgs = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(31)
    .regex(/^[\w ]+$/),
});
export const EvaluateArgs = z.strictObject({
  formula: z.string().min(1).max(1000).describe('e.g. =SUM(Sales!B2:B20)'),
  sheet: z
    .string()
    .max(31)
    .optional()
    .describe('sheet for unqualified references (default: first)'),
});
export const SubmitArgs = z.strictObject({});

export const TOOL_ARGS = {
  list_sheets: ListSheetsArgs,
  read_range: ReadRangeArgs,
  write_cell: WriteCellArgs,
  write_range: WriteRangeArgs,
  add_sheet: AddSheetArgs,
  evaluate: EvaluateArgs,
  submit: SubmitArgs,
} as const;
export type ToolName = keyof typeof TOOL_ARGS;

export const spreadsheetTools: ToolSpec[] = (
  [
    ['list_sheets', 'List the sheets and their used ranges.'],
    ['read_range', 'Show the computed values of a range (formulas shown beside their values).'],
    [
      'write_cell',
      'Write one cell: a value, or a formula (formula field, or text starting with =).',
    ],
    ['write_range', 'Write rows of values or formulas starting at a top-left cell.'],
    ['add_sheet', 'Add an empty sheet.'],
    [
      'evaluate',
      'Compute a formula without writing it (SUM, AVERAGE, MIN, MAX, COUNT, ROUND, ABS, + - * / ^).',
    ],
    [
      'submit',
      'Submit the workbook. Ends the episode; the target cells are compared with the reference.',
    ],
  ] as const
).map(([name, description]) => ({
  name,
  description,
  parameters: zodToJsonSchema(TOOL_ARGS[name]),
}));

export const SpreadsheetStateSchema = z.strictObject({
  task: z.string(),
  sheets: z.array(z.strictObject({ name: z.string(), used: z.string() })),
  writes: z.number().int().min(0).describe('cells written so far'),
  formulasWritten: z.number().int().min(0),
  changed: z
    .array(z.string())
    .describe('cells whose content differs from the task file (first 200)'),
  reads: z.number().int().min(0),
  submitted: z.boolean(),
  invalidActions: z.number().int().min(0),
});
export type SpreadsheetState = z.infer<typeof SpreadsheetStateSchema>;
export const spreadsheetStateSchema: JsonSchema = zodToJsonSchema(SpreadsheetStateSchema);

export const ScalarZ = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const SnapshotZ = z.strictObject({
  view: SpreadsheetStateSchema,
  observation: z.string(),
  sheets: z.array(
    z.strictObject({
      name: z.string(),
      cells: z.record(z.string(), z.strictObject({ v: ScalarZ, f: z.string().optional() })),
    }),
  ),
});
