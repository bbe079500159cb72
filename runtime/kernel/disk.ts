/**
 * A process's durable store: named values that survive a crash and restart of the process (its
 * "disk"). Volatile state lives in the closures a process builds when it starts, and is lost on a
 * crash. Values are kept by reference: put only durable state here, and mutate it only at the
 * moment the real program would have written (and fsynced) it.
 */
export class Disk {
  private readonly data = new Map<string, unknown>();

  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  set(key: string, value: unknown): void {
    this.data.set(key, value);
  }

  has(key: string): boolean {
    return this.data.has(key);
  }

  delete(key: string): void {
    this.data.delete(key);
  }

  keys(): string[] {
    return [...this.data.keys()].sort();
  }

  /** Loses everything (a disk-loss fault). */
  wipe(): void {
    this.data.clear();
  }
}
