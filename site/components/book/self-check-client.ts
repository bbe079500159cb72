// The self-check's behaviour: reveal the "Check answer" buttons (the page works without them),
// mark the chosen answer right or wrong, open the explanation, and record the answer in the
// reader's progress (chapters[id].checks), loaded only on pages that have a self-check.
import type { ProgressStore } from '../../lib/progress/store.ts';

let store: Promise<ProgressStore | undefined> | undefined;
function progressStore(): Promise<ProgressStore | undefined> {
  store ??= import('../../lib/progress/store.ts').then(({ ProgressStore }) => new ProgressStore()).catch(() => undefined);
  return store;
}

function updateScore(section: Element, checks: Record<string, { correct: boolean }> | undefined): void {
  const score = section.querySelector('[data-self-check-score]');
  if (!score) return;
  const total = Number(section.getAttribute('data-total'));
  const answered = checks ? Object.keys(checks).length : 0;
  const right = checks ? Object.values(checks).filter((c) => c.correct).length : 0;
  score.textContent = answered === 0 ? '' : `You have answered ${answered} of ${total}, ${right} right on your first try.`;
}

function check(section: Element, item: Element, chapterId: string | undefined): void {
  const chosen = item.querySelector<HTMLInputElement>('input[type=radio]:checked');
  const verdict = item.querySelector('[data-verdict]')!;
  if (!chosen) {
    verdict.textContent = 'Pick an answer first.';
    return;
  }
  const answer = Number(item.getAttribute('data-answer'));
  const correct = Number(chosen.value) === answer;
  for (const label of item.querySelectorAll('.self-check-choice')) label.removeAttribute('data-state');
  const chosenLabel = chosen.closest('.self-check-choice');
  chosenLabel?.setAttribute('data-state', correct ? 'right' : 'wrong');
  if (!correct) item.querySelectorAll('.self-check-choice')[answer]?.setAttribute('data-state', 'right');
  verdict.textContent = correct ? 'Right.' : 'Not quite: the right answer is marked.';
  const details = item.querySelector<HTMLDetailsElement>('[data-explanation]');
  if (details) details.open = true;
  const question = item.getAttribute('data-question');
  if (!chapterId || !question) return;
  void progressStore().then((s) => {
    if (!s) return;
    s.recordCheck(chapterId, question, correct);
    updateScore(section, s.data.chapters[chapterId]?.checks);
  });
}

export function startSelfChecks(): void {
  const chapterId = document.querySelector('[data-chapter-id]')?.getAttribute('data-chapter-id') ?? undefined;
  for (const section of document.querySelectorAll('[data-self-check]')) {
    if (section.hasAttribute('data-self-check-ready')) continue;
    section.setAttribute('data-self-check-ready', '');
    for (const item of section.querySelectorAll('.self-check-item')) {
      const button = item.querySelector<HTMLButtonElement>('[data-check]');
      if (!button) continue;
      button.hidden = false;
      button.addEventListener('click', () => check(section, item, chapterId));
    }
    if (chapterId) void progressStore().then((s) => updateScore(section, s?.data.chapters[chapterId]?.checks));
  }
}
