// The lossless conversation file (core/export/format.ts): what it keeps of a conversation (every
// field the store keeps), the files it refuses and how it says why, the hash that finds a file
// imported before, and the file name an export suggests.
import { strict as assert } from 'node:assert';
import {
  conversationHash,
  conversationToMarkdown,
  ConversationSchema,
  EXPORT_VERSION,
  exportFileName,
  exportFileText,
  parseExportBytes,
  parseExportText,
  ReplyFactsSchema,
  repairConversation,
  StoredMessageSchema,
  type Conversation,
} from '../../../../src/core';
import { conversationToHtml } from '../../../../src/core/export/htmlPage';
import { everyField } from './fixtures';

const AT = new Date('2026-11-28T09:00:00.000Z');

describe('conversation file: what it keeps', () => {
  it('keeps every field of the stored conversation, its messages and their reply facts (only the storage version is left out)', () => {
    const conv = everyField();
    // The fixture sets every field the stored schemas have: a field added there and not here fails.
    for (const key of Object.keys(ConversationSchema.shape)) assert.ok(key in conv, `the fixture sets conversation.${key}`);
    for (const key of Object.keys(StoredMessageSchema.shape)) assert.ok(conv.messages.some((m) => key in m), `the fixture sets a message's ${key}`);
    for (const key of Object.keys(ReplyFactsSchema.shape)) assert.ok(conv.messages.some((m) => m.meta && key in m.meta), `the fixture sets meta.${key}`);
    const text = exportFileText(conv, AT);
    const parsed = parseExportText(text);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
    const { version: _v, ...expected } = everyField();
    assert.deepEqual(parsed.file.conversation, expected);
    assert.deepEqual(Object.keys(parsed.file), ['format', 'version', 'exportedAt', 'conversation']);
    assert.equal(parsed.file.format, 'ai-chat-conversation');
    assert.equal(parsed.file.version, 1);
    assert.equal(parsed.file.exportedAt, AT.toISOString());
    assert.ok(text.endsWith('}\n'));
    assert.equal('version' in parsed.file.conversation, false, 'the stored version is not the file version');
  });

  it('"Sent with this message" goes into the Markdown and the web page under its question; a question without one has none', () => {
    const conv = everyField();
    const md = conversationToMarkdown(conv, AT);
    assert.ok(md.includes('Parse this\n\n> Sent with this message: 2 · 200 B\n> - src/a.ts:3-9 · lines · 120 B\n> - AGENTS.md · project instructions · 80 B'), md.slice(0, 600));
    assert.equal(md.split('Sent with this message').length - 1, 1);
    const html = conversationToHtml(conv, AT);
    assert.match(html, /<summary>Sent with this message: 2 · 200 B<\/summary><ul><li>src\/a\.ts:3-9 · lines · 120 B<\/li><li>AGENTS\.md · project instructions · 80 B<\/li><\/ul>/);
  });

  it('writes a reply still streaming as stopped, with its text so far; the conversation is not changed', () => {
    const conv = everyField();
    conv.messages[5].status = 'streaming';
    const parsed = parseExportText(exportFileText(conv, AT));
    assert.ok(parsed.ok);
    assert.equal(parsed.file.conversation.messages[5].status, 'stopped');
    assert.equal(parsed.file.conversation.messages[5].content, 'Half a reply');
    assert.equal(conv.messages[5].status, 'streaming');
  });

  it('reads a file with a byte order mark, and its bytes', () => {
    const text = exportFileText(everyField(), AT);
    assert.ok(parseExportText('\uFEFF' + text).ok);
    assert.ok(parseExportBytes(new TextEncoder().encode('\uFEFF' + text)).ok);
  });
});

describe('conversation file: refused files say what is wrong', () => {
  const file = () => JSON.parse(exportFileText(everyField(), AT)) as Record<string, unknown> & { conversation: Conversation };

  it('a newer version is refused, naming its version and the one this extension reads', () => {
    const newer = { ...file(), version: EXPORT_VERSION + 1, conversation: { whatever: 'a newer shape' } };
    const r = parseExportText(JSON.stringify(newer));
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.kind === 'newer');
    assert.equal(r.version, 2);
    assert.match(r.message, /newer version of AI Chat/);
    assert.match(r.message, /version 2\b/);
    assert.match(r.message, /reads version 1\b/);
  });

  it('a broken message is refused with where it is in the file', () => {
    const f = file();
    (f.conversation.messages[1] as { status: string }).status = 'finished';
    const r = parseExportText(JSON.stringify(f));
    assert.ok(!r.ok && r.kind === 'broken');
    assert.match(r.message, /^the file is damaged: conversation\.messages\[1\]\.status: /);
    assert.deepEqual(r.issues.length, 1);
  });

  it('many problems: three named, the count of the rest given, every one listed in issues', () => {
    const f = file();
    for (const m of f.conversation.messages) (m as { id: unknown }).id = 7;
    const r = parseExportText(JSON.stringify(f));
    assert.ok(!r.ok && r.kind === 'broken');
    assert.equal(r.issues.length, 6);
    assert.match(r.message, /\(and 3 more problems\)\.$/);
    assert.ok(r.issues.every((i, n) => i.startsWith(`conversation.messages[${n}].id: `)), r.issues.join('\n'));
  });

  it('a missing conversation, a message id out of the id rule, a summary without text: each refused as broken', () => {
    for (const [what, change] of [
      ['no conversation', (f: ReturnType<typeof file>) => delete (f as Partial<typeof f>).conversation],
      ['bad message id', (f: ReturnType<typeof file>) => (f.conversation.messages[0].id = 'message-1')],
      ['empty summary', (f: ReturnType<typeof file>) => (f.conversation.summary!.text = '')],
      ['nextSeq past the id space', (f: ReturnType<typeof file>) => (f.conversation.nextSeq = 4096)],
    ] as const) {
      const f = file();
      change(f);
      const r = parseExportText(JSON.stringify(f));
      assert.ok(!r.ok && r.kind === 'broken', what);
    }
  });

  it('not JSON, not UTF-8, another format, a format without a version: each refused with its own reason', () => {
    const cut = exportFileText(everyField(), AT).slice(0, 200);
    const notJson = parseExportText(cut);
    assert.ok(!notJson.ok && notJson.kind === 'not-json');
    assert.match(notJson.message, /^the file is not JSON \(/);
    const latin1 = parseExportBytes(new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x7d]));
    assert.ok(!latin1.ok && latin1.kind === 'not-json');
    assert.match(latin1.message, /UTF-8/);
    for (const other of ['[]', '"text"', '{"format":"something-else","version":1}', '{"messages":[]}']) {
      const r = parseExportText(other);
      assert.ok(!r.ok && r.kind === 'not-ours', other);
    }
    const noVersion = parseExportText(JSON.stringify({ ...file(), version: undefined }));
    assert.ok(!noVersion.ok && noVersion.kind === 'broken');
    assert.match(noVersion.message, /no valid format version/);
  });
});

describe('conversation file: hash and name', () => {
  it('the hash is the same however the keys are ordered, and changes with any message', () => {
    const a = parseExportText(exportFileText(everyField(), AT));
    assert.ok(a.ok);
    const reordered = JSON.parse(exportFileText(everyField(), new Date('2030-01-01T00:00:00Z'))) as { conversation: Record<string, unknown> };
    const backwards = Object.fromEntries(Object.entries(reordered.conversation).reverse());
    const b = parseExportText(JSON.stringify({ conversation: backwards, exportedAt: 'later', version: 1, format: 'ai-chat-conversation' }));
    assert.ok(b.ok);
    assert.equal(b.hash, a.hash, 'the export time and key order do not count');
    assert.match(a.hash, /^[0-9a-f]{64}$/);
    const changed = everyField();
    changed.messages[4].content += '!';
    const c = parseExportText(exportFileText(changed, AT));
    assert.ok(c.ok);
    assert.notEqual(c.hash, a.hash);
    assert.equal(conversationHash(a.file.conversation), a.hash);
  });

  it('the file name is the title without what a file system refuses', () => {
    assert.equal(exportFileName('Fix the parser'), 'Fix the parser.aichat.json');
    assert.equal(exportFileName('a/b\\c: "d" <e>|f?*'), 'a b c d e f.aichat.json');
    assert.equal(exportFileName('  ...  '), 'conversation.aichat.json');
    assert.equal(exportFileName('line\nbreak\ttab'), 'line break tab.aichat.json');
    assert.equal(exportFileName('x'.repeat(200)).length, 80 + '.aichat.json'.length);
    assert.equal(exportFileName('Notes', '.md'), 'Notes.md');
  });
});

describe('conversation file: an import\'s origin in storage', () => {
  it('a stored conversation repaired (a field failing its schema) keeps where it was imported from', () => {
    const raw = { ...everyField(), title: 42 };
    const { conv, problems } = repairConversation(raw);
    assert.ok(conv);
    assert.deepEqual(problems, ['title missing']);
    assert.deepEqual(conv.importedFrom, everyField().importedFrom);
  });
});
