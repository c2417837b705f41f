/**
 * Client entry: i18n is set up and the client error log listens (shell/error-log.ts) before anything renders;
 * then the app. The Formily expression compiler is
 * registered by the schema runtime (components/compiler.ts, imported by the component registry), which loads lazily.
 * React StrictMode is applied per route in App.tsx: every route but the form designer's, which must run
 * outside it (DESIGN §7: Designable's widgets throw under StrictMode's double effects).
 */
import { createRoot } from 'react-dom/client';
import './shell/i18n.js';
import './shell/shell.css';
import { App } from './shell/App.js';
import { installErrorCapture } from './shell/error-log.js';
import { guardDevtools } from './shell/devtool.js';

// uncaught errors and unhandled rejections go to the client error log from the first moment (spec 000 §8)
installErrorCapture(window);
// the developer tools are blocked when the parameter disable_devtool is 1 (spec 000 §9; shell/devtool.ts)
void guardDevtools(window);
createRoot(document.getElementById('root')!).render(<App />);
