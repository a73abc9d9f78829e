// Plain-text tables for the console.

export type Cell = string | number;

export function table(title: string, header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = rows.map((row) => row.map((cell) => String(cell)));
  const widths = header.map((head, column) => Math.max(head.length, ...text.map((row) => (row[column] ?? '').length)));
  // numbers (and figures such as "1.2 KB") line up on the right, words on the left
  const numeric = header.map((_, column) => rows.every((row) => /^[-+~]?[\d.,]+( ?[a-zA-Z%/]+)?$|^-$/.test(String(row[column] ?? ''))));
  const pad = (cell: string, column: number) => (numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!));
  const line = (cells: readonly string[]) => `  ${cells.map((cell, column) => pad(cell, column)).join('  ')}`.trimEnd();
  const rule = `  ${widths.map((width) => '-'.repeat(width)).join('  ')}`;
  return [title, line(header), rule, ...text.map(line)].join('\n');
}

export function kb(bytes: number, digits = 1): string {
  return `${(bytes / 1024).toFixed(digits)} KB`;
}

export function ms(value: number): string {
  return `${Math.round(value)} ms`;
}
