import { strict as assert } from 'node:assert';
import { deflateSync } from 'node:zlib';
import {
  assembleMessage,
  attachedBytes,
  chipLabel,
  CUT_MARKER,
  fileAttachment,
  formatDiagnostics,
  formatSize,
  languageFromPath,
  problemsAttachment,
  textAttachment,
  type Diagnostic,
} from '../../../src/core';
import { parseHostMessage, parseWebviewMessage } from '../../../src/protocol';

const enc = (s: string) => new TextEncoder().encode(s);

/** A real PNG: signature, IHDR, IDAT and IEND chunks (CRCs are not checked here). */
function png(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, 'ascii'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.alloc((width * 3 + 1) * height, 0x7f);
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

function bigSource(bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `export function f${i}(a: number, b: number): number { return a * ${i} + b; } // é\n`;
    lines.push(line);
    size += enc(line).length;
  }
  return lines.join('');
}

describe('context attachments', () => {
  it('attaches a small file whole, with path and language in the fenced block after the text', () => {
    const src = 'export const x = 1;\n';
    const r = fileAttachment('ctx_1', 'src/utils.ts', enc(src), 100);
    assert.ok(r.ok);
    assert.equal(r.attachment.cutToKB, undefined);
    const sent = assembleMessage('What does this do?', [r.attachment]);
    assert.equal(sent, 'What does this do?\n\n`src/utils.ts`:\n\n```typescript\nexport const x = 1;\n```');
    assert.deepEqual(chipLabel(r.attachment), { name: 'utils.ts', detail: '20 B', icon: 'file' });
  });

  it('cuts a 2 MB file to the limit with a marker, and the chip says so', () => {
    const src = bigSource(2 * 1024 * 1024);
    const r = fileAttachment('ctx_2', 'src/big.ts', enc(src), 100);
    assert.ok(r.ok);
    const a = r.attachment;
    assert.equal(a.cutToKB, 100);
    assert.equal(a.bytes, enc(src).length);
    assert.ok(enc(a.content).length <= 100 * 1024 + enc(CUT_MARKER).length + 1);
    assert.ok(a.content.endsWith(`\n${CUT_MARKER}`));
    assert.ok(src.startsWith(a.content.slice(0, a.content.length - CUT_MARKER.length)), 'the kept part is the start of the file, cut at a line end');
    assert.match(chipLabel(a).detail, /^2\.0 MB · cut to 100 KB$/);
    const sent = assembleMessage('Review', [a]);
    assert.ok(sent.includes('`src/big.ts` (cut to 100 KB):'));
    assert.ok(sent.length < 110 * 1024);
  });

  it('never leaves half a character at the cut', () => {
    const r = textAttachment('ctx_3', 'selection', 'a.md', 'markdown', 'é'.repeat(5000), 1);
    assert.ok(!r.content.includes('\uFFFD'));
    assert.ok(r.content.startsWith('é'.repeat(500)));
  });

  it('refuses a binary PNG with a message saying what to do', () => {
    const r = fileAttachment('ctx_4', 'media/logo.png', png(64, 64), 100);
    assert.equal(r.ok, false);
    assert.ok(!r.ok && /binary/.test(r.message) && /selection/.test(r.message));
  });

  it('refuses undecodable bytes without NUL (Latin-1 text)', () => {
    const r = fileAttachment('ctx_5', 'old.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]), 100);
    assert.equal(r.ok, false);
  });

  it('chooses a fence longer than any backtick run in the content', () => {
    const md = '# Doc\n\n```ts\nconst a = 1;\n```\n\n````\nnested\n````\n';
    const r = fileAttachment('ctx_6', 'docs/README.md', enc(md), 100);
    assert.ok(r.ok);
    const sent = assembleMessage('Fix the typos', [r.attachment]);
    assert.ok(sent.includes('\n`````markdown\n# Doc'));
    assert.ok(sent.endsWith('\n`````'));
  });

  it('formats 200 diagnostics sorted by line, one line each, and counts them on the chip', () => {
    const severities: Diagnostic['severity'][] = ['error', 'warning', 'info', 'hint'];
    const diags: Diagnostic[] = Array.from({ length: 200 }, (_, i) => ({
      line: 200 - i,
      severity: severities[i % 4],
      message: `Problem number ${200 - i}\n  with a second line`,
      ...(i % 2 ? { source: 'ts' } : {}),
    }));
    const text = formatDiagnostics(diags);
    const lines = text.split('\n');
    assert.equal(lines.length, 200);
    assert.equal(lines[0], 'line 1 · hint · Problem number 1 with a second line (ts)');
    assert.equal(lines[199], 'line 200 · error · Problem number 200 with a second line');
    const a = problemsAttachment('ctx_7', 'src/inventory.ts', diags, 100);
    assert.equal(chipLabel(a).detail.split(' · ')[0], '200 problems');
    assert.equal(chipLabel(a).icon, 'warning');
    const sent = assembleMessage('Fix these', [a]);
    assert.ok(sent.startsWith('Fix these\n\nProblems in `src/inventory.ts`:\n\n```\nline 1 · hint'));
  });

  it('sends attachments in chip order and a selection with its line range', () => {
    const sel = textAttachment('ctx_8', 'selection', 'src/a.py', 'python', 'def f():\n    return 1\n', 100, { start: 10, end: 11 });
    const term = textAttachment('ctx_9', 'terminal', 'bash', '', 'npm ERR! missing script: build\n', 100);
    assert.equal(chipLabel(sel).detail, '22 B · lines 10–11');
    assert.equal(chipLabel(term).detail, 'terminal selection · 31 B');
    const sent = assembleMessage('Why?  \n', [sel, term]);
    assert.equal(sent, 'Why?\n\n`src/a.py`, lines 10-11:\n\n```python\ndef f():\n    return 1\n```\n\nTerminal selection:\n\n```\nnpm ERR! missing script: build\n```');
    assert.equal(attachedBytes([sel, term]), enc(sent).length - enc('Why?').length - 4);
    assert.equal(assembleMessage('Just text', []), 'Just text');
  });

  it('knows languages and sizes', () => {
    assert.equal(languageFromPath('src/x.TSX'), 'tsx');
    assert.equal(languageFromPath('Dockerfile'), 'dockerfile');
    assert.equal(languageFromPath('.env'), '');
    assert.equal(formatSize(3277), '3.2 KB');
  });
});

describe('context chip messages', () => {
  it('accepts chips and add/remove requests, refuses bad ids and icons', () => {
    const chip = { id: 'ctx_1', name: 'utils.ts', detail: '3.2 KB', icon: 'file', path: 'src/utils.ts' };
    assert.ok(parseHostMessage({ type: 'contextChips', chips: [chip] }).ok);
    assert.equal(parseHostMessage({ type: 'contextChips', chips: [{ ...chip, icon: '"><img>' }] }).ok, false);
    assert.ok(parseWebviewMessage({ type: 'addContext' }).ok);
    assert.ok(parseWebviewMessage({ type: 'removeContext', id: 'ctx_12' }).ok);
    assert.equal(parseWebviewMessage({ type: 'removeContext', id: '../x' }).ok, false);
    assert.equal(parseHostMessage({ type: 'contextChips', chips: Array.from({ length: 201 }, () => chip) }).ok, false);
  });
});
