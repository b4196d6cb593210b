import type { Plugin } from 'vite';

/**
 * Vite adds its modulepreload polyfill to every HTML entry. The end-user portal is one chunk
 * with nothing to preload, and the polyfill shared by two entries would become a chunk of its
 * own that the console's first load then fetches too. So the portal's page goes without it,
 * and the console's build stays as it was before the portal.
 */
export function portalWithoutPreloadPolyfill(): Plugin {
  return {
    name: 'latchkey:portal-without-preload-polyfill',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!/[\\/]portal\.html$/.test(id)) return null;
      const withoutPolyfill = code.replace(/^import "vite\/modulepreload-polyfill";\n/m, '');
      if (withoutPolyfill === code) {
        // Vite changed how it adds the polyfill: fail the build rather than let the console's
        // first load grow a chunk unnoticed.
        this.error('portal.html: the modulepreload polyfill import was not found to remove');
      }
      return { code: withoutPolyfill, map: null };
    },
  };
}
