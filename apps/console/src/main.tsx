import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { applyTheme, readStoredTheme } from './lib/theme.ts';
import './index.css';

// Before the first render, so a dark-theme visitor never sees a light flash. (The CSP allows
// only scripts from our own origin, which rules out the usual inline script in index.html.)
applyTheme(readStoredTheme());

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
