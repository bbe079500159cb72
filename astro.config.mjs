// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import labs from './site/integrations/labs-integration.ts';

// The site lives in site/ (srcDir); chapters are a content collection loaded from content/.
// Shiki highlights code at build time in a light and a dark theme; the page picks one by CSS.
export default defineConfig({
  srcDir: './site',
  publicDir: './site/public',
  outDir: './dist',
  site: 'http://localhost:4321',
  trailingSlash: 'ignore',
  // labs: bundles lab suites into the grading worker, Monaco types, lazy editor CSS (site/integrations).
  integrations: [mdx(), labs()],
  markdown: {
    shikiConfig: {
      themes: { light: 'light-plus', dark: 'dark-plus' },
      defaultColor: false,
    },
  },
  devToolbar: { enabled: false },
});
