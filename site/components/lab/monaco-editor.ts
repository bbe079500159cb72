// The lab editor: Monaco with TypeScript diagnostics, completion and hover docs for the runtime's
// public types. Imported lazily by workbench.ts after first paint (it is ~1 MB gzip plus the
// TypeScript worker), never on other pages.
import * as monaco from 'monaco-editor/editor';
import './monaco-features.ts';
import 'monaco-editor/languages/definitions/typescript/register';
import * as ts from 'monaco-editor/languages/features/typescript/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import TsWorker from 'monaco-editor/languages/features/typescript/ts.worker?worker';

// Speed report marks (read by scripts/browser/labs.suite.ts): when Monaco's modules finished evaluating.
performance.mark('lab-editor:monaco-evaluated');

// The TypeScript worker (about 7 MB) and the runtime's type sources (about 650 KB) are not needed to
// type: the worker starts once the editor is interactive and the types are in, so it competes
// neither with the editor's start nor with the grading worker's boot. Diagnostics arrive a little later.
let allowTypeScriptWorker: () => void = () => undefined;
const typeScriptWorkerAllowed = new Promise<void>((resolve) => (allowTypeScriptWorker = resolve));

(globalThis as unknown as { MonacoEnvironment: monaco.Environment }).MonacoEnvironment = {
  getWorker: (_workerId: string, label: string) => {
    if (label !== 'typescript' && label !== 'javascript') return new EditorWorker();
    return typeScriptWorkerAllowed.then(() => {
      performance.mark('lab-editor:typescript-worker-start');
      return new TsWorker();
    });
  },
};

ts.typescriptDefaults.setCompilerOptions({
  target: ts.ScriptTarget.ES2020,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.NodeJs,
  strict: true,
  noUncheckedIndexedAccess: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  verbatimModuleSyntax: true,
  baseUrl: 'file:///',
  paths: { '@runtime': ['runtime/index.ts'], '@runtime/*': ['runtime/*'] },
  lib: ['es2023'],
});

let languageServiceScheduled = false;

/** The runtime sources as extra libs at their repository paths, so the starter's imports resolve. */
async function loadRuntimeTypes(): Promise<void> {
  const { labTypeFiles } = await import('virtual:lab-types');
  ts.typescriptDefaults.setExtraLibs(Object.entries(labTypeFiles).map(([path, content]) => ({ content, filePath: `file:///${path}` })));
  performance.mark('lab-editor:types-loaded');
}

/** At idle time after the editor is up (at most a second later): the types, then the TypeScript worker. */
function startLanguageServiceLater(): void {
  if (languageServiceScheduled) return;
  languageServiceScheduled = true;
  const start = () => void loadRuntimeTypes().finally(allowTypeScriptWorker);
  if (typeof requestIdleCallback === 'function') requestIdleCallback(start, { timeout: 1000 });
  else setTimeout(start, 200);
}

/**
 * Monaco's built-in themes miss WCAG AA contrast in a few places axe checks (dimmed line numbers
 * in both, comments #6A9955 and regular expressions #B46695 on #1E1E1E in the dark one): these two themes keep Monaco's colours
 * and raise only those to at least 4.5:1 on the editor background.
 */
let themesDefined = false;
function defineSiteThemes(): void {
  if (themesDefined) return;
  themesDefined = true;
  monaco.editor.defineTheme('icp-light', {
    base: 'vs',
    inherit: true,
    rules: [{ token: 'comment', foreground: '2f7a2f' }],
    colors: {
      'editorLineNumber.foreground': '#5f6b76',
      'editorLineNumber.activeForeground': '#1f2328',
      'editorLineNumber.dimmedForeground': '#5f6b76',
    },
  });
  monaco.editor.defineTheme('icp-dark', {
    base: 'vs-dark',
    inherit: true,
    rules: [
      { token: 'comment', foreground: '8cbf72' },
      // vs-dark's regular expressions (#B46695) reach only 4.19:1
      { token: 'regexp', foreground: 'c2749f' },
    ],
    colors: {
      'editorLineNumber.foreground': '#9aa4ad',
      'editorLineNumber.activeForeground': '#e6edf3',
      'editorLineNumber.dimmedForeground': '#9aa4ad',
    },
  });
}

/** Monaco's theme for the site's current theme (html[data-theme], else the system preference). */
function siteTheme(): 'icp-light' | 'icp-dark' {
  defineSiteThemes();
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'dark' || chosen === 'light') return chosen === 'dark' ? 'icp-dark' : 'icp-light';
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'icp-dark' : 'icp-light';
}

function followSiteTheme(): void {
  const apply = () => monaco.editor.setTheme(siteTheme());
  new MutationObserver(apply).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', apply);
}

export interface LabEditor {
  editor: monaco.editor.IStandaloneCodeEditor;
  getValue(): string;
  setValue(text: string): void;
  onChange(listener: (text: string) => void): void;
  /** Runs when the learner presses Ctrl/Cmd+Enter in the editor. */
  onGradeShortcut(listener: () => void): void;
  /** Runs when the learner presses Alt+Enter (Option+Enter) in the editor, outside the find widget. */
  onRunShortcut(listener: () => void): void;
  /** Runs on Escape when no editor widget (suggestions, find, hints) is open: a way out by keyboard. */
  onEscape(listener: () => void): void;
  /** Number of TypeScript errors in the model right now. */
  errorCount(): number;
}

export function createLabEditor(container: HTMLElement, slug: string, text: string, label: string): LabEditor {
  // The model sits where the starter sits in the repository, so `../../runtime/...` resolves.
  const uri = monaco.Uri.parse(`file:///labs/${slug}/submission.ts`);
  const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(text, 'typescript', uri);
  model.setValue(text);
  const editor = monaco.editor.create(container, {
    model,
    theme: siteTheme(),
    automaticLayout: true,
    minimap: { enabled: false },
    renderFinalNewline: 'on',
    fontFamily: "'JetBrains Mono Variable', ui-monospace, monospace",
    fontSize: 14,
    scrollBeyondLastLine: false,
    tabSize: 2,
    ariaLabel: label,
    accessibilityHelpUrl: undefined,
    fixedOverflowWidgets: true,
  });
  followSiteTheme();
  startLanguageServiceLater();
  const firstMarkers = monaco.editor.onDidChangeMarkers((uris) => {
    if (!uris.some((changed) => changed.toString() === uri.toString())) return;
    performance.mark('lab-editor:first-diagnostics');
    firstMarkers.dispose();
  });
  return {
    editor,
    getValue: () => model.getValue(),
    setValue: (next) => model.setValue(next),
    onChange: (listener) => void model.onDidChangeContent(() => listener(model.getValue())),
    onGradeShortcut: (listener) => void editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, listener),
    onRunShortcut: (listener) => void editor.addCommand(monaco.KeyMod.Alt | monaco.KeyCode.Enter, listener, '!findInputFocussed && !replaceInputFocussed'),
    onEscape: (listener) =>
      void editor.addCommand(monaco.KeyCode.Escape, listener, '!suggestWidgetVisible && !findWidgetVisible && !parameterHintsVisible && !renameInputVisible && !inSnippetMode && !markersNavigationVisible'),
    errorCount: () => monaco.editor.getModelMarkers({ resource: uri }).filter((marker) => marker.severity === monaco.MarkerSeverity.Error).length,
  };
}
