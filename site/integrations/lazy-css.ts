// Astro lists the CSS of dynamically imported chunks as <link rel="stylesheet"> in <head>, which
// blocks first paint on the 175 KB of Monaco CSS although Vite loads that CSS itself when the lazy
// chunk is imported. After the build, drop those links from the lab pages. The files are found by
// content (Monaco's root class), not by chunk name, which changes with every build.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

const EDITOR_CSS_MARKER = '.monaco-editor';

async function listFiles(dir: string, suffix: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith(suffix)).map((entry) => join(entry.parentPath, entry.name));
}

export async function removeLazyCssLinks(outDir: string): Promise<number> {
  const cssFiles = await listFiles(outDir, '.css');
  const editorCss: string[] = [];
  for (const file of cssFiles) {
    if ((await readFile(file, 'utf8')).includes(EDITOR_CSS_MARKER)) editorCss.push(`/${relative(outDir, file)}`);
  }
  if (editorCss.length === 0) return 0;
  let removed = 0;
  for (const page of await listFiles(outDir, '.html')) {
    const html = await readFile(page, 'utf8');
    let next = html;
    for (const href of editorCss) {
      const link = new RegExp(`<link[^>]*href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`, 'g');
      next = next.replace(link, () => {
        removed += 1;
        return '';
      });
    }
    if (next !== html) await writeFile(page, next);
  }
  return removed;
}
