// Imported first by the entry: the page's CSP forbids eval, and zod would otherwise probe it
// (new Function) while building the shared schemas, which the browser reports as a
// Content-Security-Policy violation. jitless parsing needs no eval.
import { config } from 'zod';

config({ jitless: true });
