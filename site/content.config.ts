// The two content collections of the book, and the one place their frontmatter is defined.
// Chapters live in content/ (one .mdx file per chapter); labs live in labs/<slug>/lab.mdx.
// Every field carries a doc comment: astro check and the build fail with the field's path
// when a chapter or lab frontmatter does not match.
import { defineCollection, reference } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/**
 * The three source articles the book follows (files in ../shared/seeds/):
 * - under-the-hood: "Demystifying the Kubernetes control plane: what happens under the hood" (000_...)
 * - decision-making: "The Architecture of Decision-Making" homelab article (002_...)
 * - cluster-works: "How a Kubernetes Cluster Works: Control Plane and Nodes" (004_...)
 */
const SOURCE_ARTICLES = ['under-the-hood', 'decision-making', 'cluster-works'] as const;

/** Frontmatter of a chapter (exported so site/lib/collections.ts can type entries from it). */
export const chapterSchema = z.object({
  /** Chapter title as shown in the sidebar, the page heading and the browser tab. */
  title: z.string().min(1),
  /** Position in the book (1, 2, 3...). Unique; previous/next links follow it. */
  order: z.number().int().positive(),
  /** The part of the book this chapter belongs to, as shown in the sidebar grouping. */
  part: z.string().min(1),
  /** One or two sentences: what the chapter covers. Shown on the home page and in search. */
  summary: z.string().min(1),
  /** What a reader can do after the chapter, each starting with a verb ("Trace...", "Explain..."). */
  objectives: z.array(z.string().min(1)).min(1),
  /**
   * The sections of the source articles this chapter follows: which article (see
   * SOURCE_ARTICLES above) and the titles of the sections followed.
   */
  sources: z
    .array(
      z.object({ article: z.enum(SOURCE_ARTICLES), sections: z.array(z.string().min(1)).min(1) }),
    )
    .min(1),
  /** Slugs of labs that practise this chapter (folders in labs/). */
  labs: z.array(reference('labs')).default([]),
  /** Set while a chapter is being written: it is listed but marked as a draft. */
  draft: z.boolean().default(false),
});

const chapters = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './content' }),
  schema: chapterSchema,
});

/** Frontmatter of a lab (exported so site/lib/collections.ts can type entries from it). */
export const labSchema = z.object({
  /** Lab title as shown on the lab page and in the lab list. */
  title: z.string().min(1),
  /** One sentence: what the learner implements. */
  summary: z.string().min(1),
  /** The chapter this lab practises (its content id, i.e. the file name in content/ without .mdx). */
  chapter: reference('chapters'),
  /** How hard the lab is for a reader who has read its chapter. */
  difficulty: z.enum(['intro', 'intermediate', 'advanced']),
  /** A realistic time to finish, in minutes. */
  estimatedMinutes: z.number().int().positive(),
  /**
   * The runtime interface the learner's code implements, as "<module>#<TypeName>",
   * e.g. "runtime/controllers#Reconciler". Run in cluster plugs the code in through it.
   */
  implements: z.string().regex(/^runtime\/[a-z/-]+#[A-Za-z]+$/),
  /** The exports the learner's module must provide (checked against starter, solution and suites). */
  exports: z.array(z.string().regex(/^[A-Za-z_$][\w$]*$/)).min(1),
  /** Wall-clock limit per test in milliseconds before the watchdog reports it as timed out. */
  timeLimitMs: z.number().int().positive().default(2000),
});

const labs = defineCollection({
  loader: glob({
    pattern: '*/lab.mdx',
    base: './labs',
    generateId: ({ entry }) => entry.split('/')[0]!,
  }),
  schema: labSchema,
});

export const collections = { chapters, labs };
