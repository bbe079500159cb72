// Small DOM helpers for the live widgets (no framework: the widgets are a few hundred lines each).

type Attrs = Record<string, string | number | boolean | undefined | ((e: Event) => void)>;

/** Creates an element: h('button', { type: 'button', onclick: fn }, 'Stop'). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Node | string | undefined | false)[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== undefined && child !== false) el.append(child);
  return el;
}

/** Sets text only when it changed (no layout work, no screen-reader churn). */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

export function setAttr(el: Element, name: string, value: string | undefined): void {
  if (value === undefined) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/**
 * Keeps `container`'s children in step with `items` by key: existing elements are updated in
 * place (so a focused button keeps its focus), new ones created, gone ones removed, order kept.
 */
export function reconcile<T, E extends Element>(
  container: Element, items: readonly T[], key: (item: T) => string,
  create: (item: T) => E, update: (el: E, item: T) => void,
): void {
  const existing = new Map<string, E>();
  for (const child of [...container.children]) {
    const k = (child as HTMLElement).dataset['key'];
    if (k !== undefined) existing.set(k, child as E);
  }
  let previous: Element | null = null;
  for (const item of items) {
    const k = key(item);
    let el = existing.get(k);
    if (el) existing.delete(k);
    else {
      el = create(item);
      (el as unknown as HTMLElement).dataset['key'] = k;
    }
    update(el, item);
    const expectedNext: Element | null = previous ? previous.nextElementSibling : container.firstElementChild;
    if (expectedNext !== el) container.insertBefore(el, expectedNext);
    previous = el;
  }
  for (const el of existing.values()) el.remove();
}

/** "1m 23.4s" of simulated time. */
export function formatSimTime(ms: number): string {
  const totalS = ms / 1000;
  const m = Math.floor(totalS / 60);
  const s = totalS - m * 60;
  const sText = s.toFixed(1).padStart(m > 0 ? 4 : 0, '0');
  return m > 0 ? `${m}m ${sText}s` : `${sText}s`;
}

/** kubectl's short ages: 45s, 3m12s, 2h5m (translateTimestampSince, for the event table). */
export function shortAge(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60 ? `${s % 60}s` : ''}`;
  if (m < 180) return `${m}m`;
  return `${Math.floor(m / 60)}h`;
}

export function formatCpu(milli: number): string {
  return milli % 1000 === 0 ? `${milli / 1000}` : `${milli}m`;
}

export function formatMemory(bytes: number): string {
  const gi = bytes / 2 ** 30;
  if (gi >= 1) return `${Number.isInteger(gi) ? gi : gi.toFixed(1)}Gi`;
  return `${Math.round(bytes / 2 ** 20)}Mi`;
}
