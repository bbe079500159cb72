// Site shortcuts ("/" for search, Ctrl+Enter and Alt+Enter on lab pages) must never fire while
// the reader is typing. Form fields and contenteditable are not the only places text is typed: in
// Chromium, Monaco's input is a plain <div> driven by the EditContext API (not contenteditable, not
// a textarea), so a check by tag name let every "/" typed in the editor jump to the search box.
// Anything inside a code editor counts as typing, whatever element holds the focus there.

/** Elements whose keys belong to them: form fields, editable content, code editors. */
const TYPING_SELECTOR = 'input, textarea, select, [contenteditable]:not([contenteditable="false"]), [role="textbox"], [role="combobox"], .monaco-editor';

/** True when a key event aimed at `target` is the reader typing, not a page shortcut. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  if ('editContext' in element && (element as { editContext?: unknown }).editContext) return true;
  return element.closest(TYPING_SELECTOR) !== null;
}
