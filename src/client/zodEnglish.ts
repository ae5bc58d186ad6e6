// zod/mini carries no messages of its own (every issue reads "Invalid input"): the English ones,
// which the rules named in logs, errors and refused imports are made of, are set for every schema
// of the bundle by the modules that read an issue's message, with a call when they load (a bare
// import would be dropped: the sources are marked free of side effects).
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/** Sets zod's English messages (for every zod schema in this bundle). */
export function useZodEnglish(): void {
  z.config(en());
}
