// Typed access to the content collections. With Astro 7.3 and TypeScript 6, `astro:content`'s
// getCollection resolves to the `(...args: any[]) => any` fallback declared in astro/types, not to
// the generated overloads in .astro/content.d.ts, so entries come back untyped. These wrappers give
// them the types of the schemas in site/content.config.ts, so the compiler checks our pages again.
import { getCollection } from 'astro:content';
import type { z } from 'astro/zod';
import type { chapterSchema, labSchema } from '../content.config';

export interface Chapter {
  id: string;
  collection: 'chapters';
  /** Raw MDX body, frontmatter excluded. */
  body?: string;
  data: z.output<typeof chapterSchema>;
  filePath?: string;
}

export interface Lab {
  id: string;
  collection: 'labs';
  body?: string;
  data: z.output<typeof labSchema>;
  filePath?: string;
}

export async function getChapters(): Promise<Chapter[]> {
  return (await getCollection('chapters')) as Chapter[];
}

export async function getLabs(): Promise<Lab[]> {
  return (await getCollection('labs')) as Lab[];
}
