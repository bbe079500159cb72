// An in-memory Web Storage for tests: can be made to refuse writes like a full or disabled store.
import type { KeyValueStorage } from './persist.ts';

export class FakeStorage implements KeyValueStorage {
  readonly items = new Map<string, string>();
  /** 'quota' throws QuotaExceededError on setItem; 'denied' throws SecurityError on every call. */
  failure: 'none' | 'quota' | 'denied' = 'none';

  private check(): void {
    if (this.failure === 'denied') throw new DOMException('The operation is insecure.', 'SecurityError');
  }

  getItem(key: string): string | null {
    this.check();
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.check();
    if (this.failure === 'quota') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    this.items.set(key, value);
  }

  removeItem(key: string): void {
    this.check();
    this.items.delete(key);
  }
}
