/**
 * Client entry: i18n is set up before anything renders; then the app. The Formily expression compiler is
 * registered by the schema runtime (runtime/compiler.ts, imported by ResourcePage), which loads lazily.
 * The designer (a later issue) is outside React StrictMode (DESIGN §7), so StrictMode wraps the app here only.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './shell/i18n.js';
import './shell/shell.css';
import { App } from './shell/App.js';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
