/**
 * Client entry: i18n and the Formily expression compiler are set up before anything renders; then the app.
 * The designer (a later issue) is outside React StrictMode (DESIGN §7), so StrictMode wraps the app here only.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './shell/i18n.js';
import './runtime/compiler.js';
import './shell/shell.css';
import { App } from './shell/App.js';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
