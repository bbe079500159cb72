// The home page's one-line progress summary (pure, so it can be tested without a DOM).
export function summaryText(chaptersRead: number, labsPassed: number, chaptersTotal?: number, labsTotal?: number): string {
  if (chaptersRead === 0 && labsPassed === 0) return 'No progress saved in this browser yet.';
  const of = (count: number, total?: number) => (total === undefined ? `${count}` : `${count} of ${total}`);
  const chapters = `${of(chaptersRead, chaptersTotal)} ${chaptersRead === 1 && chaptersTotal === undefined ? 'chapter' : 'chapters'} read`;
  const labs = `${of(labsPassed, labsTotal)} ${labsPassed === 1 && labsTotal === undefined ? 'lab' : 'labs'} passed`;
  return `${chapters}, ${labs}.`;
}
