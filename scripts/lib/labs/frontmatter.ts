// Reads and checks a lab.mdx frontmatter with the same rules as the `labs` content collection
// (site/content.config.ts). Browser-safe: E2's build plugin and the CLI both use it.
import { parse } from 'yaml';

export type Difficulty = 'intro' | 'intermediate' | 'advanced';

export interface LabMeta {
  title: string;
  summary: string;
  chapter: string;
  difficulty: Difficulty;
  estimatedMinutes: number;
  implements: string;
  exports: string[];
  timeLimitMs: number;
}

const DIFFICULTIES: readonly string[] = ['intro', 'intermediate', 'advanced'];
const DEFAULT_TIME_LIMIT_MS = 2000;

/** The YAML between the leading `---` lines, or null when there is none. */
export function frontmatterText(mdx: string): string | null {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(mdx);
  return m ? m[1]! : null;
}

/** Parses and validates; the error names the field and says how to fix it. */
export function parseLabMeta(mdx: string, where = 'lab.mdx'): { meta: LabMeta } | { error: string } {
  const text = frontmatterText(mdx);
  if (text === null) return { error: `${where}: no frontmatter (start the file with --- lines)` };
  const data: unknown = parse(text);
  if (typeof data !== 'object' || data === null) return { error: `${where}: frontmatter is not a mapping` };
  const d = data as Record<string, unknown>;
  const problems: string[] = [];
  const str = (k: string) => (typeof d[k] === 'string' && (d[k] as string).length > 0 ? (d[k] as string) : (problems.push(`${k}: a non-empty string`), ''));
  const posInt = (k: string) => (Number.isInteger(d[k]) && (d[k] as number) > 0 ? (d[k] as number) : (problems.push(`${k}: a positive integer`), 0));
  const title = str('title');
  const summary = str('summary');
  const chapter = str('chapter');
  const difficulty = DIFFICULTIES.includes(d.difficulty as string) ? (d.difficulty as Difficulty) : (problems.push(`difficulty: one of ${DIFFICULTIES.join(', ')}`), 'intro');
  const estimatedMinutes = posInt('estimatedMinutes');
  const implementsRef = str('implements');
  if (implementsRef && !/^runtime\/[a-z/-]+#[A-Za-z]+$/.test(implementsRef)) problems.push('implements: "runtime/<module>#<TypeName>"');
  const exportsList = Array.isArray(d.exports) ? d.exports : [];
  if (exportsList.length === 0 || !exportsList.every((e) => typeof e === 'string' && /^[A-Za-z_$][\w$]*$/.test(e))) {
    problems.push('exports: a non-empty list of identifiers');
  }
  const timeLimitMs = d.timeLimitMs === undefined ? DEFAULT_TIME_LIMIT_MS : posInt('timeLimitMs');
  if (problems.length) return { error: `${where}: invalid frontmatter; expected ${problems.join('; ')}` };
  return {
    meta: { title, summary, chapter, difficulty, estimatedMinutes, implements: implementsRef, exports: exportsList as string[], timeLimitMs },
  };
}
