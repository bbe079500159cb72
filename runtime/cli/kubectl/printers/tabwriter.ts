// Column alignment with the semantics of Go's text/tabwriter, which every kubectl table and
// `kubectl describe` goes through. Cells are tab-terminated; the last cell of a line is not part
// of any column; a column block is a run of consecutive lines that have a cell in that column,
// and its width is max(minWidth, widest cell + padding). Widths count runes, like Go.
// Semantics follow go/src/text/tabwriter/tabwriter.go (format/writeLines); our own code.

export interface TabwriterOptions {
  minWidth: number;
  padding: number;
}

/** kubectl get: printers.GetNewTabWriter (minwidth 6, padding 3, pad char ' '). */
export const GET_TABWRITER: TabwriterOptions = { minWidth: 6, padding: 3 };
/** kubectl describe: tabwriter.NewWriter(out, 0, 8, 2, ' ', 0). */
export const DESCRIBE_TABWRITER: TabwriterOptions = { minWidth: 0, padding: 2 };

const runeCount = (text: string): number => [...text].length;

/** Aligns text whose cells are separated by '\t' and lines by '\n'. */
export function alignTabs(text: string, options: TabwriterOptions): string {
  const endsWithNewline = text.endsWith('\n');
  const body = endsWithNewline ? text.slice(0, -1) : text;
  const lines = body.split('\n').map((line) => line.split('\t'));
  const out: string[] = [];
  formatBlock(lines, 0, lines.length, [], options, out);
  return out.join('\n') + (endsWithNewline ? '\n' : '');
}

function formatBlock(
  lines: string[][],
  from: number,
  to: number,
  widths: number[],
  options: TabwriterOptions,
  out: string[],
): void {
  const column = widths.length;
  let line0 = from;
  for (let row = from; row < to; row++) {
    if (column >= lines[row]!.length - 1) continue;
    writeLines(lines, line0, row, widths, out);
    line0 = row;
    let width = options.minWidth;
    for (; row < to; row++) {
      const line = lines[row]!;
      if (column >= line.length - 1) break;
      width = Math.max(width, runeCount(line[column]!) + options.padding);
    }
    formatBlock(lines, line0, row, [...widths, width], options, out);
    line0 = row;
    row--; // the for-loop increment re-reads the line that ended the block
  }
  writeLines(lines, line0, to, widths, out);
}

function writeLines(
  lines: string[][],
  from: number,
  to: number,
  widths: number[],
  out: string[],
): void {
  for (let row = from; row < to; row++) {
    const cells = lines[row]!;
    let text = '';
    cells.forEach((cell, j) => {
      text += cell;
      const width = widths[j];
      if (j < cells.length - 1 && width !== undefined)
        text += ' '.repeat(Math.max(0, width - runeCount(cell)));
    });
    out.push(text);
  }
}
