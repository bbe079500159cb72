// Modules generated at build time by site/integrations/labs-integration.ts.

declare module 'virtual:lab-suites' {
  /** Per lab slug: loaders for its bundled hidden and example suites (worker only). */
  export const labSuites: Record<string, { hidden: () => Promise<unknown>; examples: () => Promise<unknown> }>;
}

declare module 'virtual:lab-types' {
  /** Source of the runtime's public faces, as Monaco extra libs: path (e.g. "runtime/api/index.ts") -> text. */
  export const labTypeFiles: Record<string, string>;
}
