import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { readHead } from '../../../../src/core/context/workspacePath';
import {
  attachmentLimitMessage,
  attachmentRoom,
  MAX_ATTACHMENTS,
  readFileAttachment,
  readThroughClipboard,
  workspaceFilesOf,
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
} from '../../../../src/core';
import { parseHostMessage, parseWebviewMessage } from '../../../../src/protocol';

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
    assert.deepEqual([chipLabel(sel).name, chipLabel(sel).detail], ['src/a.py:10-11', '22 B']);
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
  it('accepts chips and remove requests, refuses bad ids and icons and the old add request (the + button opens the # menu in the page)', () => {
    const chip = { id: 'ctx_1', name: 'utils.ts', detail: '3.2 KB', icon: 'file', path: 'src/utils.ts' };
    assert.ok(parseHostMessage({ type: 'contextChips', chips: [chip] }).ok);
    assert.equal(parseHostMessage({ type: 'contextChips', chips: [{ ...chip, icon: '"><img>' }] }).ok, false);
    assert.equal(parseWebviewMessage({ type: 'addContext' }).ok, false);
    assert.ok(parseWebviewMessage({ type: 'removeContext', id: 'ctx_12' }).ok);
    assert.equal(parseWebviewMessage({ type: 'removeContext', id: '../x' }).ok, false);
    assert.equal(parseHostMessage({ type: 'contextChips', chips: Array.from({ length: 201 }, () => chip) }).ok, false);
  });
});

describe('context attachments: bounded reads and limits', () => {
  let dir = '';
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'attach-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a 300 MB (sparse) file: only maxFileKB + 4 bytes are read, memory stays bounded, the chip says cut and the real size', async () => {
    const big = join(dir, 'big.log');
    writeFileSync(big, 'a log line of text\n'.repeat(10_000)); // 190 KB of text, then holes
    truncateSync(big, 300 * 1024 * 1024);
    const before = process.memoryUsage();
    const head = await readHead(big, 100 * 1024 + 4);
    assert.equal(head.bytes.length, 100 * 1024 + 4, 'bytes read');
    assert.equal(head.bytes.buffer.byteLength, 100 * 1024 + 4, 'bytes allocated');
    assert.equal(head.size, 300 * 1024 * 1024);
    const r = await readFileAttachment('ctx_1', 'big.log', big, 100);
    const after = process.memoryUsage();
    assert.ok(r.ok);
    assert.equal(r.attachment.bytes, 300 * 1024 * 1024, 'the chip shows the file size');
    assert.equal(r.attachment.cutToKB, 100);
    assert.ok(r.attachment.content.endsWith(CUT_MARKER));
    assert.ok(new TextEncoder().encode(r.attachment.content).length <= 100 * 1024 + CUT_MARKER.length + 1);
    const grown = (after.arrayBuffers + after.external - before.arrayBuffers - before.external) / 1e6;
    assert.ok(grown < 32, `buffers grew by ${grown.toFixed(1)} MB`);
    assert.match(chipLabel(r.attachment).detail, /^300\.0 MB · cut to 100 KB$/);
  });

  it('binary sniffing looks at the bounded part: text cut inside a character is text, NUL bytes are binary', async () => {
    const text = join(dir, 'accents.txt');
    // 'é' is 2 bytes: 1 + 2 * 60,000 bytes, so the read ends inside a character.
    writeFileSync(text, 'x' + 'é'.repeat(60_000));
    const r = await readFileAttachment('ctx_2', 'accents.txt', text, 100);
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.ok(!r.attachment.content.includes('\uFFFD'));
    const bin = join(dir, 'blob.bin');
    writeFileSync(bin, Buffer.concat([Buffer.from('text'), Buffer.alloc(10), Buffer.alloc(500_000, 0x61)]));
    assert.equal((await readFileAttachment('ctx_3', 'blob.bin', bin, 100)).ok, false);
  });

  it('a FIFO or a folder is refused without reading (no hang)', async () => {
    await assert.rejects(readHead(dir, 10), (e: { code?: string }) => e.code === 'ENOTFILE' || e.code === 'EISDIR');
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [join(dir, 'pipe')]);
      await assert.rejects(readHead(join(dir, 'pipe'), 10), (e: { code?: string }) => e.code === 'ENOTFILE');
    }
  });

  it('at most 100 chips and 8 M characters together; the same file again replaces its chip', () => {
    const a = (i: number, chars = 10, path = `src/f${i}.ts`) => textAttachment(`ctx_${i}`, 'selection', path, 'ts', 'x'.repeat(chars), 4096);
    const file = (i: number, chars = 10) => ({ ...a(i, chars), kind: 'file' as const });
    const hundred = Array.from({ length: MAX_ATTACHMENTS }, (_, i) => file(i));
    assert.equal(attachmentRoom(hundred.slice(1), file(0)), 'ok');
    assert.equal(attachmentRoom(hundred, file(100)), 'count');
    assert.equal(attachmentRoom(hundred, file(5)), 'ok', 'the same file replaces its chip');
    const big = [file(1, 4_000_000), file(2, 3_999_000)];
    assert.equal(attachmentRoom(big, file(3, 1_000)), 'ok');
    assert.equal(attachmentRoom(big, file(3, 1_001)), 'size');
    assert.match(attachmentLimitMessage('count', ['a.ts', 'b.ts', 'c.ts', 'd.ts']), /^4 files were not attached \(a\.ts, b\.ts, c\.ts, …\): a message takes at most 100 attachments/);
    assert.match(attachmentLimitMessage('size', ['a.ts']), /^1 file was not attached \(a\.ts\): the attachments of a message are limited to 8 million characters/);
    // What the limits protect: 100 chips pass the host message check, and so does a message with 8 M characters attached.
    const chips = hundred.map((x) => ({ id: x.id, ...chipLabel(x), path: x.path }));
    assert.equal(parseHostMessage({ type: 'contextChips', chips }).ok, true);
    assert.equal(parseWebviewMessage({ type: 'send', text: assembleMessage('explain', big) }).ok, true);
  });

  it('Open Editors keeps only files of a workspace folder', () => {
    const u = (scheme: string, fsPath: string) => ({ scheme, fsPath });
    const tabs = [u('file', '/w/src/a.ts'), u('vscode-userdata', '/home/u/.config/Code/User/settings.json'), u('file', '/home/u/.bashrc'), u('untitled', 'Untitled-1'), u('file', '/w2/b.ts'), u('file', '/wx/c.ts')];
    const { files, others } = workspaceFilesOf(tabs, ['/w', '/w2']);
    assert.deepEqual(files.map((f) => f.fsPath), ['/w/src/a.ts', '/w2/b.ts']);
    assert.equal(others.length, 4);
  });

  it('the terminal selection is read through the clipboard, which gets its text back whatever happens', async () => {
    let clip = 'the paragraph the user had copied';
    const clipboard = { readText: async () => clip, writeText: async (t: string) => void (clip = t) };
    await assert.rejects(
      readThroughClipboard(clipboard, async () => {
        throw new Error('terminal process exited');
      }),
      /terminal process exited/,
    );
    assert.equal(clip, 'the paragraph the user had copied', 'put back after a failed copy');
    const got = await readThroughClipboard(clipboard, async () => void (clip = 'ls -la output'));
    assert.equal(got, 'ls -la output');
    assert.equal(clip, 'the paragraph the user had copied', 'put back after a copy');
  });
});
