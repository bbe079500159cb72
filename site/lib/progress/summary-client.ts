// Fills <div id="progress-summary"> on the home page with the reader's progress. Totals come from
// the div's data-chapters-total and data-labs-total attributes when the page provides them.
import { browserStorage, loadProgress } from './persist.ts';
import { summaryText } from './summary-text.ts';

function optionalNumber(value: string | undefined): number | undefined {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

const target = document.getElementById('progress-summary');
if (target) {
  const { progress, problem } = loadProgress(browserStorage(), new Date().toISOString());
  const chaptersRead = Object.values(progress.chapters).filter((chapter) => chapter.readAt).length;
  const labsPassed = Object.values(progress.labs).filter((lab) => lab.passedAt).length;
  const text = summaryText(chaptersRead, labsPassed, optionalNumber(target.dataset.chaptersTotal), optionalNumber(target.dataset.labsTotal));
  target.textContent = problem ? `${text} (${problem})` : text;
}
