// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';

// The site lives in site/ (srcDir); chapters are a content collection loaded from content/.
// Shiki highlights code at build time in a light and a dark theme; the page picks one by CSS.
export default defineConfig({
  srcDir: './site',
  publicDir: './site/public',
  outDir: './dist',
  site: 'http://localhost:4321',
  trailingSlash: 'ignore',
  integrations: [mdx()],
  markdown: {
    shikiConfig: {
      themes: { light: 'light-plus', dark: 'dark-plus' },
      defaultColor: false,
    },
  },
  devToolbar: { enabled: false },
});
