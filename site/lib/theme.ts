// The theme toggle's behaviour (client side). The inline script in BaseLayout's <head> applies a
// saved theme before first paint; this module keeps the button, the page and localStorage in step.

export type Theme = 'light' | 'dark';

/** localStorage key of the reader's explicit choice; absent means "follow the system". */
export const THEME_STORAGE_KEY = 'theme';

/** The theme currently shown: the explicit choice on <html>, else the system preference. */
export function currentTheme(root: HTMLElement, prefersDark: boolean): Theme {
  const explicit = root.dataset.theme;
  if (explicit === 'light' || explicit === 'dark') return explicit;
  return prefersDark ? 'dark' : 'light';
}

/**
 * Runs a theme change with CSS transitions off (global.css, html[data-theme-switching]), so every
 * colour flips in the same frame. Reading a computed style forces the new styles to apply while
 * transitions are still off; they come back on the next frame.
 */
function applyWithoutTransitions(root: HTMLElement, change: () => void): void {
  root.dataset.themeSwitching = '';
  change();
  void getComputedStyle(root).backgroundColor;
  requestAnimationFrame(() => {
    delete root.dataset.themeSwitching;
  });
}

export function initThemeToggle(): void {
  const root = document.documentElement;
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  const buttons = document.querySelectorAll<HTMLButtonElement>('[data-theme-toggle]');
  const sync = () => {
    const dark = currentTheme(root, media.matches) === 'dark';
    for (const button of buttons) button.setAttribute('aria-pressed', String(dark));
  };
  for (const button of buttons) {
    button.addEventListener('click', () => {
      const next: Theme = currentTheme(root, media.matches) === 'dark' ? 'light' : 'dark';
      applyWithoutTransitions(root, () => {
        root.dataset.theme = next;
      });
      try {
        localStorage.setItem(THEME_STORAGE_KEY, next);
      } catch {
        // Storage disabled (private mode, policy): the toggle still works for this page view.
      }
      sync();
      root.dispatchEvent(new CustomEvent('themechange', { detail: next }));
    });
  }
  media.addEventListener('change', sync);
  sync();
}
