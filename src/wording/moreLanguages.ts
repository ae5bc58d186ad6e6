// The highlight.js languages left out of the chat panel's first bundle (src/wording/highlight.ts
// lists them, with their aliases, as LATER): the panel loads them as a chunk of their own
// (media/dist/languages.js) when a block names one; the exported web page registers them at once.
import type { LanguageFn } from 'highlight.js';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import kotlin from 'highlight.js/lib/languages/kotlin';
import php from 'highlight.js/lib/languages/php';
import powershell from 'highlight.js/lib/languages/powershell';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scss from 'highlight.js/lib/languages/scss';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';

export const MORE_LANGUAGES: Readonly<Record<string, LanguageFn>> = {
  c, cpp, csharp, css, dockerfile, go, ini, java, kotlin, php, powershell, ruby, rust, scss, sql, swift,
};
