import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The UI is a plain Svelte SPA; fastify serves ui/dist. `npm run dev:ui` proxies /api to `npm run dev`.
export default defineConfig({
  root: 'ui',
  plugins: [svelte()],
  build: { outDir: 'dist', emptyOutDir: true },
  server: { proxy: { '/api': 'http://127.0.0.1:8765' } },
});
