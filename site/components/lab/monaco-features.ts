// The editor contributions a TypeScript lab needs, instead of Monaco's register.all: editing,
// navigation and the TypeScript service's UI (suggest, hover, signature help, quick fixes, rename,
// go to definition, errors), keyboard and accessibility helpers. Left out: diff editor, inline
// completions, colour picker, code lens, sticky scroll, drag and drop, GPU rendering, font zoom and
// similar features no lab uses; fewer modules to download, compile and run before the editor is ready.
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/codeAction/register';
import 'monaco-editor/features/comment/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/cursorUndo/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/folding/register';
import 'monaco-editor/features/format/register';
import 'monaco-editor/features/gotoError/register';
import 'monaco-editor/features/gotoLine/register';
import 'monaco-editor/features/gotoSymbol/register';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/indentation/register';
import 'monaco-editor/features/lineSelection/register';
import 'monaco-editor/features/linesOperations/register';
import 'monaco-editor/features/multicursor/register';
import 'monaco-editor/features/parameterHints/register';
import 'monaco-editor/features/quickCommand/register';
import 'monaco-editor/features/quickHelp/register';
import 'monaco-editor/features/referenceSearch/register';
import 'monaco-editor/features/rename/register';
import 'monaco-editor/features/smartSelect/register';
import 'monaco-editor/features/snippet/register';
import 'monaco-editor/features/suggest/register';
// register.all gets the suggest widget itself only through inline completions: import it directly.
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/toggleHighContrast/register';
import 'monaco-editor/features/toggleTabFocusMode/register';
import 'monaco-editor/features/wordHighlighter/register';
import 'monaco-editor/features/wordOperations/register';
import 'monaco-editor/features/wordPartOperations/register';
