// Entry of media/dist/languages.js, the chunk of highlight.js languages the panel loads when a
// block needs one (languages.ts): it hands them to the page on the window.
import { MORE_LANGUAGES } from '../../wording/moreLanguages';
import { LANGUAGES_GLOBAL } from './languagesChunkName';

(window as unknown as Record<string, unknown>)[LANGUAGES_GLOBAL] = MORE_LANGUAGES;
