// The office corpus, written from the fiscal dataset with well-kept libraries: multi-page PDF annual
// reports (pdfkit), DOCX department memos (docx) and XLSX appendices (exceljs). The files are made
// once per process, in memory; nothing pre-extracted ships with them (extract.ts reads them back).

import { AlignmentType, Document, HeadingLevel, Packer, PageBreak, Paragraph, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import {
  DEPARTMENTS,
  department,
  type FiscalData,
  fiscalData,
  ITEMS,
  itemTotal,
  QUARTERS,
  YEARS,
  type Year,
  yearOf,
  yearTotal,
} from './data.ts';

export type DocKind = 'pdf' | 'docx' | 'xlsx';
export interface CorpusFile {
  name: string;
  kind: DocKind;
  title: string;
  bytes: Buffer;
}

export const fmt = (n: number) => n.toLocaleString('en-US');
const EPOCH = new Date(Date.UTC(2025, 2, 31));

export function reportName(year: Year): string {
  return `annual-report-fy${year}.pdf`;
}
export function memoName(dept: string): string {
  return `memo-${dept}.docx`;
}
export function appendixName(year: Year): string {
  return `appendix-fy${year}.xlsx`;
}

async function report(data: FiscalData, year: Year): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `City of Elmford annual report FY${year}`, CreationDate: EPOCH, ModDate: EPOCH },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.fontSize(22).text(`City of Elmford — Annual financial report FY${year}`, { align: 'left' });
  doc
    .moveDown()
    .fontSize(12)
    .text(
      'Operating spending of the city departments, by quarter and line item, in thousand dollars.',
    );
  doc
    .moveDown()
    .text('Contents: page 2, summary by department; pages 3 to 10, one page per department.');
  doc
    .moveDown()
    .text(
      'Figures marked with a letter in brackets were restated after the year-end audit; the footnote at the bottom of the page gives the restated figure, which replaces the one in the table.',
    );
  // Summary page: totals as reported.
  doc.addPage().fontSize(16).text(`Summary FY${year} (thousand dollars, as reported)`);
  doc.moveDown().fontSize(11);
  for (const d of DEPARTMENTS)
    doc.text(`${d.name}    ${fmt(yearTotal(yearOf(data, d.key, year), true))}`);
  // One page per department: the table, then its footnotes.
  for (const d of DEPARTMENTS) {
    const dy = yearOf(data, d.key, year);
    doc.addPage().fontSize(16).text(`${d.name} — FY${year} spending (thousand dollars)`);
    doc.moveDown(0.5).fontSize(10).text(`Director: ${d.director}`);
    doc.moveDown();
    const cols = [50, 210, 280, 350, 420, 490];
    const row = (cells: string[]) => {
      const y = doc.y;
      for (const [i, c] of cells.entries()) doc.text(c, cols[i] as number, y, { lineBreak: false });
      doc.text('', 50, y + 18);
    };
    doc.fontSize(11);
    row(['Line item', 'Q1', 'Q2', 'Q3', 'Q4', 'Total']);
    const notes: string[] = [];
    for (const item of ITEMS) {
      const cells = QUARTERS.map((q) => {
        const c = dy.cells[item][q];
        if (c.note)
          notes.push(
            `[${c.note}] Restated after the audit: ${item}, ${q} FY${year} is ${fmt(c.corrected as number)} (reported ${fmt(c.reported)}).`,
          );
        return `${fmt(c.reported)}${c.note ? `[${c.note}]` : ''}`;
      });
      row([item, ...cells, fmt(itemTotal(dy, item, true))]);
    }
    row([
      'Department total',
      ...QUARTERS.map((q) => fmt(ITEMS.reduce((n, i) => n + dy.cells[i][q].reported, 0))),
      fmt(yearTotal(dy, true)),
    ]);
    doc.moveDown(2).fontSize(9);
    doc.text(notes.length ? 'Notes:' : 'Notes: none.', 50);
    for (const n of notes) doc.text(n, 50);
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

async function memo(data: FiscalData, key: string): Promise<Buffer> {
  const d = department(key);
  const y23 = yearOf(data, key, 2023);
  const y24 = yearOf(data, key, 2024);
  const para = (text: string) => new Paragraph({ children: [new TextRun(text)] });
  const heading = (text: string) =>
    new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(text)] });
  const doc = new Document({
    creator: 'City of Elmford',
    title: `${d.name} memo`,
    sections: [
      {
        children: [
          new Paragraph({
            alignment: AlignmentType.LEFT,
            heading: HeadingLevel.TITLE,
            children: [new TextRun(`Memo — ${d.name}`)],
          }),
          para(`From: ${d.director}, director of ${d.name}. To: the City Finance Committee.`),
          heading('Staffing'),
          para(
            `At the end of FY2023 ${d.name} employed ${fmt(y23.headcount)} people. At the end of FY2024 its headcount was ${fmt(y24.headcount)}.`,
          ),
          para(
            'Headcounts are people on the payroll on the last day of the fiscal year, not full-time equivalents.',
          ),
          new Paragraph({ children: [new PageBreak()] }),
          heading('Budget'),
          para(
            `The approved operating budget of ${d.name} for FY2025 is ${fmt(data.approved2025[key] as number)} thousand dollars.`,
          ),
          para(
            'The annual report gives the spending of FY2023 and FY2024; restated figures are in its footnotes.',
          ),
          new Paragraph({ children: [new PageBreak()] }),
          heading('Outlook'),
          para(
            `${d.name} expects demand to grow next year. Capital projects are listed in the appendix workbooks, with the amounts spent to date.`,
          ),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

async function appendix(data: FiscalData, year: Year): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'City of Elmford';
  wb.created = EPOCH;
  wb.modified = EPOCH;
  const staff = wb.addWorksheet('Staffing');
  staff.addRow([`Full-time equivalents by quarter, FY${year}`]);
  staff.addRow(['Department', ...QUARTERS]);
  for (const d of DEPARTMENTS)
    staff.addRow([d.name, ...QUARTERS.map((q) => yearOf(data, d.key, year).fte[q])]);
  if (year === 2024) {
    const cap = wb.addWorksheet('Capital projects');
    cap.addRow(['Capital projects at the end of FY2024 (thousand dollars)']);
    cap.addRow(['Project', 'Department', 'Approved', 'Spent to date']);
    for (const p of data.projects)
      cap.addRow([p.name, department(p.dept).name, p.approved, p.spent]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

let cached: Promise<CorpusFile[]> | undefined;

/** Every file of the corpus, in listing order (written once per process). */
export function corpus(): Promise<CorpusFile[]> {
  cached ??= (async () => {
    const data = fiscalData();
    const files: CorpusFile[] = [];
    for (const y of YEARS)
      files.push({
        name: reportName(y),
        kind: 'pdf',
        title: `Annual financial report FY${y}`,
        bytes: await report(data, y),
      });
    for (const d of DEPARTMENTS)
      files.push({
        name: memoName(d.key),
        kind: 'docx',
        title: `Memo of ${d.name}`,
        bytes: await memo(data, d.key),
      });
    for (const y of YEARS)
      files.push({
        name: appendixName(y),
        kind: 'xlsx',
        title: `Appendix FY${y} (staffing${y === 2024 ? ', capital projects' : ''})`,
        bytes: await appendix(data, y),
      });
    return files;
  })();
  cached.catch(() => {
    cached = undefined;
  });
  return cached;
}

export const DOCUMENT_NAMES: string[] = [
  ...YEARS.map(reportName),
  ...DEPARTMENTS.map((d) => memoName(d.key)),
  ...YEARS.map(appendixName),
];
