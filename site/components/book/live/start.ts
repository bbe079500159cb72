// Placeholder replaced by the live widgets (work in progress).
export function startLiveClusters(): void {}
