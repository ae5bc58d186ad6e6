// The highlight.js languages split between the panel's first bundle (src/wording/highlight.ts) and
// the chunk it loads when a block names another (src/wording/moreLanguages.ts): the names and
// aliases the first bundle knows the chunk by are the chunk's own, and no language is in both.
import { strict as assert } from 'node:assert';
import hljs from 'highlight.js/lib/core';
import { LATER, isKnownLanguage } from '../../../src/wording/highlight';
import { MORE_LANGUAGES } from '../../../src/wording/moreLanguages';

describe('highlight.js languages: the first bundle and the later chunk', () => {
  it("LATER names each language of the chunk with its definition's aliases", () => {
    const own = hljs.newInstance();
    const seen = Object.fromEntries(Object.entries(MORE_LANGUAGES).map(([name, language]) => [name, language(own).aliases ?? []]));
    assert.deepEqual(seen, LATER);
  });

  it('the languages the first bundle registers are not in the chunk', () => {
    const all = Object.entries(LATER).flatMap(([name, aliases]) => [name, ...aliases]);
    const first = ['bash', 'diff', 'javascript', 'json', 'markdown', 'plaintext', 'python', 'shell', 'typescript', 'xml', 'yaml'];
    for (const name of first) assert.ok(isKnownLanguage(name), name);
    for (const name of first) assert.ok(!all.includes(name), name);
  });
});
