/**
 * Client entry: i18n is set up before anything renders; then the app. The Formily expression compiler is
 * registered by the schema runtime (components/compiler.ts, imported by the component registry), which loads lazily.
 * React StrictMode is applied per route in App.tsx: every route but the form designer's, which must run
 * outside it (DESIGN §7: Designable's widgets throw under StrictMode's double effects).
 */
import { createRoot } from 'react-dom/client';
import './shell/i18n.js';
import './shell/shell.css';
import { App } from './shell/App.js';

createRoot(document.getElementById('root')!).render(<App />);
