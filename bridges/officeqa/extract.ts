// Text of the corpus files, extracted when a document is first read, with real parsers: pdfjs-dist
// for PDF (text items grouped into lines by their baseline), mammoth for DOCX (its HTML, one page
// per heading section) and exceljs for XLSX (one page per worksheet). Extracted pages are kept for
// the process, so every episode reads the same text.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import { type CorpusFile, corpus } from './corpus.ts';

const require = createRequire(import.meta.url);

interface TextItem {
  str: string;
  transform: number[];
}

async function pdfPages(bytes: Buffer): Promise<string[]> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const root = dirname(require.resolve('pdfjs-dist/package.json'));
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: `${join(root, 'standard_fonts')}/`,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
  }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const lines = new Map<number, { x: number; s: string }[]>();
      for (const raw of content.items) {
        const item = raw as TextItem;
        if (typeof item.str !== 'string' || !item.str.trim()) continue;
        const y = Math.round(item.transform[5] ?? 0);
        const x = item.transform[4] ?? 0;
        lines.set(y, [...(lines.get(y) ?? []), { x, s: item.str.trim() }]);
      }
      const text = [...lines.entries()]
        .sort((a, b) => b[0] - a[0])
        .map(([, parts]) =>
          parts
            .sort((a, b) => a.x - b.x)
            .map((p) => p.s)
            .join('  '),
        )
        .join('\n');
      pages.push(text);
      page.cleanup();
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

function htmlText(html: string): string {
  return html
    .replace(/<\/(p|h\d|li|tr)>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replaceAll('&amp;', '&')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n');
}

async function docxPages(bytes: Buffer): Promise<string[]> {
  const { value } = await mammoth.convertToHtml({ buffer: bytes });
  return value
    .split(/(?=<h1>)/)
    .map(htmlText)
    .filter(Boolean);
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'object' && 'result' in v) return String(v.result ?? '');
  return String(v);
}

async function xlsxPages(bytes: Buffer): Promise<string[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  return wb.worksheets.map((ws) => {
    const rows: string[] = [`Sheet: ${ws.name}`];
    ws.eachRow((row) => {
      const values = (row.values as ExcelJS.CellValue[]).slice(1).map(cellText);
      rows.push(values.join(' | '));
    });
    return rows.join('\n');
  });
}

const pages = new Map<string, Promise<string[]>>();

async function extract(file: CorpusFile): Promise<string[]> {
  if (file.kind === 'pdf') return pdfPages(file.bytes);
  if (file.kind === 'docx') return docxPages(file.bytes);
  return xlsxPages(file.bytes);
}

/** The pages of a document (extracted on first use), or undefined for an unknown name. */
export async function documentPages(name: string): Promise<string[] | undefined> {
  const file = (await corpus()).find((f) => f.name === name);
  if (!file) return undefined;
  let p = pages.get(name);
  if (!p) {
    p = extract(file);
    pages.set(name, p);
    p.catch(() => pages.delete(name));
  }
  return p;
}

export interface Passage {
  document: string;
  page: number;
  text: string;
  /** Words the ranking indexes: the page's heading and the passage. */
  indexed: string;
}

let passages: Promise<Passage[]> | undefined;

/** Every line of every page as a passage, indexed with its page's first line (the heading). */
export function allPassages(): Promise<Passage[]> {
  passages ??= (async () => {
    const out: Passage[] = [];
    for (const file of await corpus()) {
      const ps = (await documentPages(file.name)) ?? [];
      ps.forEach((text, i) => {
        const lines = text.split('\n').filter(Boolean);
        const heading = lines[0] ?? '';
        for (const line of lines)
          out.push({
            document: file.name,
            page: i + 1,
            text: line,
            indexed: line === heading ? line : `${heading} ${line}`,
          });
      });
    }
    return out;
  })();
  passages.catch(() => {
    passages = undefined;
  });
  return passages;
}
