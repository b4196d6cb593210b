// First: zod reads this configuration when a schema is built, and building one must not probe
// for eval under the site's Content-Security-Policy.
import './lib/zod-jitless.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadSignedInVisit } from './App.tsx';
import { applyTheme, readStoredTheme } from './lib/theme.ts';
import './index.css';

// index.html's inline script already set the class before first paint; applying it again here
// keeps the document right where that script could not run (the Vite dev server, tests).
applyTheme(readStoredTheme());

// A returning owner's page, its code and its data are asked for before anything renders.
preloadSignedInVisit(window.location.pathname);

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

// As a transition, the first render yields to the browser every few milliseconds instead of
// holding the main thread until the whole first screen is built (a phone's long task).
startTransition(() => {
  createRoot(rootElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
