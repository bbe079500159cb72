// Vitest colours its diffs with ANSI escape codes; the page shows plain text.
// Matches CSI sequences (ESC [ ... letter) and the two-byte ESC sequences.
const ANSI_PATTERN = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '');
}
