// The highlight.js languages the panel's first bundle leaves out (src/wording/moreLanguages.ts):
// loaded as a chunk of their own (media/dist/languages.js, beside the panel's script, with the
// page's nonce) when a block first names one. Until then such a block is plain text, as an unknown
// language is; once they are registered, the finished blocks shown plain are highlighted in place
// (through the sanitizer, like every fragment of a reply). A chunk that does not load leaves them plain.
import { highlightCode, isKnownLanguage, registerLanguages, whenLaterLanguage } from './highlight';
import { getPipeline } from './pipeline';
import { LANGUAGES_CHUNK, LANGUAGES_GLOBAL } from './languagesChunkName';
import type { LanguageFn } from 'highlight.js';

/** The chunk sets the languages, by name, on the window. */
type ChunkWindow = Window & { [LANGUAGES_GLOBAL]?: Readonly<Record<string, LanguageFn>> };

/** The chunk's state in this page: asked for once. */
let state: 'idle' | 'loading' | 'loaded' | 'failed' = 'idle';

/** `script`: the panel's own script element (the chunk is its sibling `languages.js`, with its nonce). */
export function loadLanguagesWhenNeeded(doc: Document, script: HTMLScriptElement): void {
  whenLaterLanguage(() => {
    if (state !== 'idle') return;
    state = 'loading';
    const chunk = doc.createElement('script');
    chunk.setAttribute('nonce', script.nonce ?? '');
    chunk.src = new URL(LANGUAGES_CHUNK, script.src).href;
    chunk.addEventListener('load', () => {
      const languages = (doc.defaultView as ChunkWindow | null)?.[LANGUAGES_GLOBAL];
      if (!languages) {
        state = 'failed';
        return;
      }
      registerLanguages(languages);
      state = 'loaded';
      highlightPlainBlocks(doc);
    });
    chunk.addEventListener('error', () => (state = 'failed'));
    doc.head.append(chunk);
  });
}

/** Finished code blocks shown plain whose language is now known: highlighted in place (the streaming tail is left to its own render). */
export function highlightPlainBlocks(doc: Document): void {
  const { sanitize } = getPipeline();
  for (const code of doc.querySelectorAll<HTMLElement>('pre.md-code > code[class*="language-"]')) {
    if (code.childElementCount > 0 || code.closest('.md-tail')) continue;
    const language = /(?:^|\s)language-(\S+)/.exec(code.className)?.[1] ?? '';
    if (!isKnownLanguage(language)) continue;
    const highlighted = sanitize(`<pre><code>${highlightCode(code.textContent ?? '', language)}</code></pre>`).querySelector('code');
    if (highlighted) code.replaceChildren(...highlighted.childNodes);
  }
}
