// The search box in the header (client side, no framework). It follows the ARIA 1.2 combobox
// pattern: the input owns a listbox of results; arrow keys move aria-activedescendant, Enter opens
// the active result, Escape closes the list, and "/" focuses the box from anywhere on the page.
// The index (/search-index.json) is fetched once, on first focus, so pages that are only read
// never download it.
import { search, type SearchHit } from './rank';
import type { SearchIndex } from './types';
import { isTypingTarget } from '../keyboard/typing-target';

const INDEX_URL = '/search-index.json';
const KIND_LABEL: Record<SearchHit['doc']['k'], string> = {
  chapter: 'Chapter',
  section: 'Section',
  term: 'Glossary',
  lab: 'Lab',
};

let indexPromise: Promise<SearchIndex> | undefined;

function loadIndex(): Promise<SearchIndex> {
  indexPromise ??= fetch(INDEX_URL).then((response) => {
    if (!response.ok) throw new Error(`search index: ${INDEX_URL} answered ${response.status}`);
    return response.json() as Promise<SearchIndex>;
  });
  return indexPromise;
}

/** Appends `text` to `parent`, wrapping each occurrence of a query word in <mark>. */
function appendHighlighted(parent: HTMLElement, text: string, words: readonly string[]): void {
  if (words.length === 0) {
    parent.append(text);
    return;
  }
  const pattern = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi');
  text.split(pattern).forEach((part, i) => {
    if (i % 2 === 1) {
      const mark = document.createElement('mark');
      mark.textContent = part;
      parent.append(mark);
    } else if (part) {
      parent.append(part);
    }
  });
}

export function initSearch(root: HTMLElement): void {
  const input = root.querySelector<HTMLInputElement>('[data-search-input]');
  const list = root.querySelector<HTMLUListElement>('[role="listbox"]');
  const status = root.querySelector<HTMLElement>('[data-search-status]');
  const empty = root.querySelector<HTMLElement>('[data-search-empty]');
  if (!input || !list || !status || !empty) throw new Error('search: the search box markup is incomplete');

  let hits: SearchHit[] = [];
  let active = -1;

  const setOpen = (open: boolean) => {
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (!open) setActive(-1);
  };

  const setActive = (i: number) => {
    active = i;
    list.querySelectorAll('[role="option"]').forEach((option, j) => {
      option.setAttribute('aria-selected', String(j === i));
    });
    if (i >= 0) {
      input.setAttribute('aria-activedescendant', `search-option-${i}`);
      list.children[i]?.scrollIntoView({ block: 'nearest' });
    } else {
      input.removeAttribute('aria-activedescendant');
    }
  };

  const go = (i: number) => {
    const hit = hits[i];
    if (hit) window.location.assign(hit.doc.u);
  };

  const render = (query: string, words: string[]) => {
    list.replaceChildren();
    hits.forEach((hit, i) => {
      const option = document.createElement('li');
      option.id = `search-option-${i}`;
      option.setAttribute('role', 'option');
      option.setAttribute('aria-selected', 'false');
      option.dataset.url = hit.doc.u;
      const head = document.createElement('span');
      head.className = 'search-hit-head';
      const kind = document.createElement('span');
      kind.className = 'search-hit-kind';
      kind.textContent = KIND_LABEL[hit.doc.k];
      const title = document.createElement('span');
      title.className = 'search-hit-title';
      appendHighlighted(title, hit.doc.t, words);
      head.append(kind, title);
      option.append(head);
      if (hit.doc.k === 'section' && hit.doc.p) {
        const parent = document.createElement('span');
        parent.className = 'search-hit-parent';
        parent.textContent = hit.doc.p;
        option.append(parent);
      }
      if (hit.snippet) {
        const snippet = document.createElement('span');
        snippet.className = 'search-hit-snippet';
        appendHighlighted(snippet, hit.snippet, words);
        option.append(snippet);
      }
      option.addEventListener('click', () => go(i));
      list.append(option);
    });
    status.textContent = query
      ? hits.length === 0
        ? `No results for “${query}”.`
        : `${hits.length} result${hits.length === 1 ? '' : 's'}; use the arrow keys to choose and Enter to open.`
      : '';
    empty.textContent = status.textContent;
    empty.hidden = !(query && hits.length === 0);
    setOpen(hits.length > 0);
  };

  const update = async () => {
    const query = input.value.trim();
    if (!query) {
      hits = [];
      render('', []);
      return;
    }
    try {
      const index = await loadIndex();
      if (input.value.trim() !== query) return; // a newer keystroke will render
      hits = search(index, query);
      render(query, query.toLowerCase().split(/\s+/).filter(Boolean));
    } catch (error) {
      status.textContent = 'Search is unavailable: the index could not be loaded.';
      empty.textContent = status.textContent;
      empty.hidden = false;
      console.warn(error);
    }
  };

  input.addEventListener('focus', () => {
    loadIndex().catch(() => {});
    if (hits.length > 0) setOpen(true);
  });
  input.addEventListener('blur', () => {
    empty.hidden = true;
  });
  input.addEventListener('input', () => void update());
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (hits.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((active + step + hits.length) % hits.length);
    } else if (event.key === 'Enter') {
      if (hits.length === 0) return;
      event.preventDefault();
      go(active >= 0 ? active : 0);
    } else if (event.key === 'Escape') {
      if (!list.hidden) {
        event.preventDefault();
        setOpen(false);
      } else if (input.value) {
        input.value = '';
        void update();
      }
    }
  });
  // Keep focus in the input while clicking a result, so the click lands before blur closes the list.
  list.addEventListener('mousedown', (event) => event.preventDefault());
  input.addEventListener('blur', () => setOpen(false));

  document.addEventListener('keydown', (event) => {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTypingTarget(event.target)) return;
    event.preventDefault();
    input.focus();
  });
}
