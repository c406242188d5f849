import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The web UI is built into the package (`dist/web/`), where `taskweave serve` finds it. Its code
 * imports the event and client-message types from `src/events/`, so the protocol has one definition.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web/', import.meta.url)),
    emptyOutDir: true,
    // elkjs (the plan graph's layout) is one large chunk, loaded only when a plan is shown.
    chunkSizeWarningLimit: 1700,
  },
});
