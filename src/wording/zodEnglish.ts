// zod/mini carries no messages of its own (every issue reads "Invalid input"): the English ones,
// which the rules named in logs, errors and refused imports are made of, are set here for every
// schema of the bundle. Imported for its effect by the modules that read an issue's message.
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());
