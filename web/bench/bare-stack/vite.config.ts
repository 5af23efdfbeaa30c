// Builds the bare stack with the app's own Vite and React plugin (bench/first-load.ts).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  logLevel: 'warn',
  build: { outDir: fileURLToPath(new URL('../../node_modules/.bare-stack-dist', import.meta.url)), emptyOutDir: true },
});
