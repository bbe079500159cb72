// Included by the chapter layout: marks the chapter visited on load and read when the reader
// reaches its end. Expects the chapter's <article data-chapter-id="01-journey">. Kept tiny (it
// ships on every chapter page): it edits the current save in place and loads the full store only
// to migrate an older save. A failed save is shown under the chapter, not dropped.
import { CURRENT_VERSION, storageKey } from './schema.ts';

type Chapters = Record<string, { visitedAt?: string; readAt?: string }>;

function showSaveError(article: Element): void {
  if (article.querySelector('.progress-save-error')) return;
  const note = document.createElement('p');
  note.className = 'progress-save-error';
  note.setAttribute('role', 'status');
  note.textContent = 'Your reading progress could not be saved in this browser (storage is full or disabled).';
  article.append(note);
}

function mark(article: Element, id: string, read: boolean): void {
  const at = new Date().toISOString();
  try {
    const text = localStorage.getItem(storageKey(CURRENT_VERSION));
    if (text === null && localStorage.getItem(storageKey(CURRENT_VERSION - 1)) !== null) {
      void import('./store.ts').then(({ ProgressStore }) => {
        const store = new ProgressStore();
        const result = read ? store.markChapterRead(id) : store.markChapterVisited(id);
        if (!result.ok) showSaveError(article);
      });
      return;
    }
    const progress = text === null ? { version: CURRENT_VERSION, chapters: {}, labs: {} } : JSON.parse(text);
    if (progress?.version !== CURRENT_VERSION || typeof progress.chapters !== 'object') return; // not ours to rewrite
    const chapters = progress.chapters as Chapters;
    const chapter = (chapters[id] ??= {});
    chapter.visitedAt ??= at;
    if (read) chapter.readAt ??= at;
    localStorage.setItem(storageKey(CURRENT_VERSION), JSON.stringify(progress));
  } catch {
    showSaveError(article);
  }
}

const article = document.querySelector('[data-chapter-id]');
const id = article?.getAttribute('data-chapter-id');
if (article && id) {
  mark(article, id, false);
  const end = document.createElement('div');
  end.setAttribute('aria-hidden', 'true');
  article.append(end);
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    mark(article, id, true);
  });
  observer.observe(end);
}
