// electron-vite builds: main (Electron entry + core), preload, renderer (React).
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(__dirname, 'src/main/index.ts') }, external: ['better-sqlite3', '@napi-rs/keyring'] },
    },
  },
  preload: {
    // A sandboxed preload cannot be an ES module: build it as CommonJS (index.cjs).
    build: {
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    build: { outDir: resolve(__dirname, 'out/renderer'), rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } } },
  },
});
