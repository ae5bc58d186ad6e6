// Export and import benchmark: a 1,000-turn conversation (replies of about 2 KB, every reply with
// its facts, some with reasoning) saved through the real file storage in a temporary folder, then
//   exportMs      the lossless file's text of the saved conversation (exportFileText)
//   parseMs       that text read and checked against the schema, and hashed (parseExportText)
//   importMs      Import Conversation… into another History on disk: read, checked, the duplicate
//                 check (History listed), the log written, History and the search index updated
//   duplicateMs   the same file imported again: found in History, nothing written
//   maxBlockMs    the longest the event loop was held during one import (monitorEventLoopDelay)
// each the median of 5 runs (a fresh History each), and whether the file of the import equals the
// first export but for the id and importedFrom. Run: npm run bench:export
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { appendMessage, ConversationStore, createConversation, exportFileText, importConversation, parseExportText, type Conversation } from '../../src/core';
import { FileConversationStorage } from '../../src/extension/platform/conversationFiles';

const TURNS = 1000;
const RUNS = 5;

function conversation(): Conversation {
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const conv = createConversation('bench-export', new Date(start));
  const reply = (i: number) => `Reply ${i}: ` + 'The parser reads the token, checks the grammar and moves on. '.repeat(33);
  for (let i = 0; i < TURNS; i++) {
    const at = new Date(start + i * 60_000);
    appendMessage(conv, 'user', `Question ${i}: how does part ${i} of the parser work?`, at, i % 3 ? {} : { files: [`src/part${i}.ts`] });
    appendMessage(conv, 'assistant', reply(i), new Date(at.getTime() + 2000), {
      meta: { model: 'swift-chat', credits: 1, promptTokens: 500 + i, completionTokens: 500, ...(i % 4 ? {} : { reasoning: 'Thinking it through. '.repeat(20) }) },
    });
  }
  return conv;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (x: number) => Math.round(x * 10) / 10;

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'aichat-export-bench-'));
  try {
    const here = new ConversationStore(new FileConversationStorage(join(root, 'here'), join(root, 'here-ws')));
    const conv = conversation();
    await here.restore(conv);
    const saved = (await here.load(conv.id))!;
    const figures = { exportMs: [] as number[], parseMs: [] as number[], importMs: [] as number[], duplicateMs: [] as number[], maxBlockMs: [] as number[] };
    let text = '';
    let sameBack = true;
    for (let run = 0; run < RUNS; run++) {
      let t = performance.now();
      text = exportFileText(saved);
      figures.exportMs.push(performance.now() - t);
      t = performance.now();
      const parsed = parseExportText(text);
      figures.parseMs.push(performance.now() - t);
      if (!parsed.ok) throw new Error(parsed.message);
      const there = new ConversationStore(new FileConversationStorage(join(root, `there${run}`), join(root, `there${run}-ws`)));
      const loop = monitorEventLoopDelay({ resolution: 1 });
      loop.enable();
      t = performance.now();
      const r = await importConversation(there, text);
      figures.importMs.push(performance.now() - t);
      loop.disable();
      figures.maxBlockMs.push(loop.max / 1e6);
      if (r.kind !== 'imported') throw new Error(`import: ${r.kind}`);
      t = performance.now();
      const again = await importConversation(there, text);
      figures.duplicateMs.push(performance.now() - t);
      if (again.kind !== 'duplicate') throw new Error(`second import: ${again.kind}`);
      await there.flush();
      const back = JSON.parse(exportFileText((await there.load(r.conversation.id))!, new Date((JSON.parse(text) as { exportedAt: string }).exportedAt))) as { conversation: { id: string; importedFrom?: unknown } };
      back.conversation.id = conv.id;
      delete back.conversation.importedFrom;
      sameBack &&= JSON.stringify(back, null, 2) + '\n' === text;
    }
    console.log(`export benchmark: ${TURNS} turns (${TURNS * 2} messages), file ${round(Buffer.byteLength(text) / 1048576)} MB, median of ${RUNS}`);
    for (const [name, xs] of Object.entries(figures)) console.log(`  ${name.padEnd(12)} ${round(median(xs))} ms   (runs: ${xs.map(round).join(', ')})`);
    console.log(`  round trip   ${sameBack ? 'identical but for the id and importedFrom' : 'DIFFERENT'}`);
    if (!sameBack) process.exitCode = 1;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

void main();
