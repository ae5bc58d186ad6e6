// How the panel and its chunk of highlight.js languages find each other (languages.ts,
// languagesChunk.ts): the chunk's file, beside the panel's script, and the window property it sets.
export const LANGUAGES_CHUNK = 'languages.js';
export const LANGUAGES_GLOBAL = 'aiChatMoreLanguages';
