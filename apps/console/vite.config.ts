import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ProxyOptions } from 'vite';
import { portalWithoutPreloadPolyfill } from './build-tools/portal-without-preload-polyfill.ts';
import { precompressAssets } from './build-tools/precompress-assets.ts';

const apiProxy: ProxyOptions = {
  target: 'http://localhost:5000',
  changeOrigin: true,
  // The server refuses cookie-authenticated mutations from a foreign Origin. The Vite dev
  // server stands in for the server's own origin during development, so present it as such.
  configure: (proxy) => {
    proxy.on('proxyReq', (proxyRequest) => {
      if (proxyRequest.getHeader('origin'))
        proxyRequest.setHeader('origin', 'http://localhost:5000');
    });
  },
};

export default defineConfig({
  plugins: [react(), tailwindcss(), portalWithoutPreloadPolyfill(), precompressAssets()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // Two pages: the console, and the end-user portal (/portal/:publicId), a small
      // framework-free bundle of its own that shares no code with the console. The keys name
      // the entry chunks (index-*.js stays the console's entry, as tests and caches expect).
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        portal: fileURLToPath(new URL('./portal.html', import.meta.url)),
      },
      output: {
        // The libraries every page needs change far less often than our code: their own
        // chunks stay cached across console releases. Everything else (Radix primitives used
        // by one page, say) splits with the lazily loaded page that uses it.
        codeSplitting: {
          groups: [
            { name: 'firebase', test: /node_modules[\\/](@firebase|firebase)[\\/]/, priority: 2 },
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|wouter)[\\/]/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': apiProxy },
  },
  preview: {
    proxy: { '/api': apiProxy },
  },
});
