import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type ProxyOptions } from 'vite';
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
  plugins: [react(), tailwindcss(), precompressAssets()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
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
