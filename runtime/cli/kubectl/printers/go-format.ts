// Go's fmt verbs as kubectl's printers use them on plain values.

/** %v of a []string: "[a b c]", "[]" for none (or for one empty string). */
export function goSlice(xs: readonly string[] | undefined): string {
  return `[${(xs ?? []).join(' ')}]`;
}
