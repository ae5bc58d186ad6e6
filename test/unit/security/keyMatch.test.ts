// The key guard (ApiKeyStore.holds -> holdsSecret -> holdsKey): a text holding the key in any form
// a copy of it takes is neither sent, queued nor kept as a draft. Every case of the audit's probe
// (p_holds), and texts that must not count.
import { strict as assert } from 'node:assert';
import { MIN_KEY_PREFIX_CHARS, base64Forms, holdsKey } from '../../../src/core/account/keyMatch';
import { assembleMessage, fileAttachment } from '../../../src/core';
import { holdsSecret } from '../../../src/extension/platform/redact';

const KEY = 'sk-live-abcdef1234567890XYZ';
const enc = new TextEncoder();

/** A file whose maxFileKB cut (100 KB) falls `into` characters into the key (one long line, as minified code). */
function cutFile(into: number): string {
  const filler = 'x'.repeat(100 * 1024 - 4 - into);
  const r = fileAttachment('ctx_1', 'dist/app.min.js', enc.encode(filler + `KEY=${KEY}\n`), 100);
  assert.ok(r.ok);
  return assembleMessage('what is wrong here?', [r.attachment]);
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

const HOLDING: Array<[string, string]> = [
  ['the key as typed', `please use ${KEY} for the call`],
  ['wrapped over two lines (terminal copy)', `token: ${KEY.slice(0, 14)}\n${KEY.slice(14)}`],
  ['wrapped with CRLF and an indent', `token: ${KEY.slice(0, 9)}\r\n    ${KEY.slice(9)}`],
  ['in base64 (k8s Secret, .dockerconfigjson)', `data:\n  API_KEY: ${b64(`API_KEY=${KEY}\n`)}`],
  ['in base64 at alignment 0', b64(KEY)],
  ['in base64 at alignment 1', b64(`x${KEY}`)],
  ['in base64 at alignment 2', b64(`xy${KEY}`)],
  ['in URL-safe base64', b64(`??${KEY}>>`).replace(/\+/g, '-').replace(/\//g, '_')],
  ['in base64 wrapped at 20 columns', (b64(`{"auths":{"x":{"auth":"${KEY}"}}}`).match(/.{1,20}/g) ?? []).join('\n')],
  ['JSON-escaped (\\u002d for "-")', `{"key":"${KEY.replace(/-/g, '\\u002d')}"}`],
  ['every character \\u-escaped', [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
  ['\\x-escaped dashes', KEY.replace(/-/g, '\\x2d')],
  ['\\u{…}-escaped dashes and an escaped letter', KEY.replace(/-/g, '\\u{2D}').replace('a', '\\u0061')],
  ['escaped and with a zero-width space inside', `${KEY.slice(0, 10).replace(/-/g, '%2D')}\u200b${KEY.slice(10)}`],
  ['URL-encoded (%2D)', `curl 'https://x/?k=${KEY.replace(/-/g, '%2D')}'`],
  ['URL-encoded, lower case (%2d)', `k=${KEY.replace(/-/g, '%2d')}&x=1`],
  ['with a zero-width space inside', `${KEY.slice(0, 10)}\u200b${KEY.slice(10)}`],
  ['with a zero-width joiner, a word joiner and a soft hyphen inside', `${KEY.slice(0, 5)}\u200d${KEY.slice(5, 12)}\u2060${KEY.slice(12, 20)}\u00ad${KEY.slice(20)}`],
  ['with a BOM before it', `\ufeff${KEY}`],
  ['all but its last 2 characters', KEY.slice(0, -2)],
  [`its first ${MIN_KEY_PREFIX_CHARS} characters at the end of the text (a key being typed)`, `my key is ${KEY.slice(0, MIN_KEY_PREFIX_CHARS)}`],
  ['a start of it at the end of a line, spaces after it', `KEY=${KEY.slice(0, 15)}  \nmore text`],
  ['attached file cut (maxFileKB) 20 chars into the key', cutFile(20)],
  [`attached file cut ${MIN_KEY_PREFIX_CHARS} chars into the key`, cutFile(MIN_KEY_PREFIX_CHARS)],
  ['wrapped and cut at the end', `${KEY.slice(0, 8)}\n${KEY.slice(8, 16)}`],
];

const NOT_HOLDING: Array<[string, string]> = [
  ['a text about keys', 'where do I put my API key? it starts with sk-live-'],
  ['a key-shaped string that is not the key', 'sk-live-zzzzzz1234567890XYZ'],
  [`a start of the key shorter than ${MIN_KEY_PREFIX_CHARS} characters at the end`, `prefix ${KEY.slice(0, MIN_KEY_PREFIX_CHARS - 1)}`],
  ['a start of the key in the middle of a line', `${KEY.slice(0, 20)}-and-more text after it`],
  ['the key with one character changed', KEY.slice(0, 10) + 'Q' + KEY.slice(11)],
  ['base64 of another key', b64('sk-live-000000000000000000')],
  ['an empty text', ''],
  ['escapes of other characters', `${KEY.slice(0, 8).replace(/-/g, '%2E')}${KEY.slice(8)}`],
  ['attached file cut before the key', cutFile(-3)],
];

describe('the key guard finds the key in every form a copy of it takes', () => {
  for (const [label, text] of HOLDING) {
    it(`holds: ${label}`, () => {
      assert.equal(holdsKey(text, [KEY]), true);
      assert.equal(holdsSecret(text, [KEY]), true, 'through holdsSecret (ApiKeyStore.holds)');
    });
  }
  for (const [label, text] of NOT_HOLDING) {
    it(`does not hold: ${label}`, () => {
      assert.equal(holdsKey(text, [KEY]), false);
      assert.equal(holdsSecret(text, [KEY]), false);
    });
  }

  it('looks for every key given; keys shorter than 4 characters, or blank, are never looked for', () => {
    assert.equal(holdsKey(`x ${KEY} y`, ['other-key-000', KEY]), true);
    assert.equal(holdsKey('abc ab', ['', 'ab', '   ']), false);
    assert.equal(holdsKey('anything', []), false);
  });

  it('base64Forms gives the stable middle of each alignment, in both alphabets', () => {
    const forms = base64Forms(KEY);
    for (const shift of ['', 'x', 'xy']) {
      const whole = b64(shift + KEY);
      assert.ok(forms.some((f) => whole.includes(f)), `alignment ${shift.length}`);
    }
    assert.ok(forms.every((f) => f.length >= 12));
  });
});
