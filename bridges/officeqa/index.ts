// The `officeqa` bridge: OfficeQA-style questions over a corpus of real office files (PDF reports,
// DOCX memos, XLSX appendices) written from a seeded fiscal dataset and parsed at read time.
import { restoredEnv } from '../core/helpers.ts';
import type { Bridge, EnvSnapshot, TaskFilter } from '../core/types.ts';
import { DOCUMENT_NAMES } from './corpus.ts';
import { OfficeQaEnv } from './env.ts';
import { allTasks, findTask, listOfficeqaTasks, SPLITS } from './tasks.ts';
import { ENV_TYPE, officeqaStateSchema, officeqaTools } from './tools.ts';

export { type CorpusFile, corpus } from './corpus.ts';
export { configureOfficeqa, OfficeQaEnv } from './env.ts';
export { documentPages } from './extract.ts';
export { normalize, score, tokenF1 } from './scoring.ts';
export { allTasks, findTask, type OfficeqaTask } from './tasks.ts';
export { calculate, type OfficeqaState, OfficeqaStateSchema } from './tools.ts';

export const officeqaBridge: Bridge = {
  name: ENV_TYPE,
  description:
    `OfficeQA-style questions over ${DOCUMENT_NAMES.length} real office files (PDF annual reports, DOCX memos, XLSX appendices) ` +
    `written from a seeded fiscal dataset and parsed at read time (pdfjs, mammoth, exceljs): ${allTasks().length} questions ` +
    '(lookups, footnote corrections, arithmetic, cross-document joins); tools list_documents / search / read / calculate / answer; ' +
    'scored by exact match after normalisation or a numeric match within a relative tolerance, with token F1 reported.',
  splits: [...SPLITS],
  async listTasks(filter?: TaskFilter) {
    return listOfficeqaTasks(filter);
  },
  async getTask(taskId: string) {
    return findTask(taskId)?.info;
  },
  tools: () => officeqaTools,
  stateSchema: () => officeqaStateSchema,
  async create() {
    return new OfficeQaEnv();
  },
  fromState: (snapshot: EnvSnapshot) => restoredEnv(new OfficeQaEnv(), snapshot),
};
