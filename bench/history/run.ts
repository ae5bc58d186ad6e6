/**
 * `npm run bench:history`: the figures of a long conversation and a large history, in one run.
 * Storage and search (bench/history/storage.ts) run in Node against generated conversations;
 * the open of a 300-turn conversation and the bytes posted to the panel (bench/history/webview.ts)
 * run through the real webview bundle in headless Chromium. The last line is for scripts.
 */
import { measureStorage } from './storage';
import { measureWebview } from './webview';
import { measureContext } from './context';
import { measureFind } from './find';

async function main(): Promise<void> {
  // `--vscode`: the History quick pick itself, in code-server (bench/history/vscode.ts).
  if (process.argv.includes('--vscode')) return void (await import('./vscode'));
  const storage = await measureStorage();
  const webview = await measureWebview();
  const context = await measureContext();
  const find = await measureFind();
  const fig = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
  console.log('');
  console.log('Figures (goal in brackets):');
  console.log(`  open of a 300-turn conversation, first paint of the last reply: ${fig(webview.open300Ms)} ms (<= 1000)`);
  console.log(`  History listing of 1,000 conversations: ${fig(storage.list1000Ms)} ms (<= 300)`);
  console.log(`  full-text search over 10,000 messages: p50 ${fig(storage.search10kP50Ms)} ms, p95 ${fig(storage.search10kP95Ms)} ms (p95 <= 50)`);
  console.log(`  bytes posted per streamed chunk: ${fig(webview.postBytesPerChunk)} (<= 2048)`);
  console.log(`  bytes posted per settings change at 300 turns: ${fig(webview.postBytesPerSettingsChange)} (<= 8192)`);
  console.log(`  longest task while a short reply streams at the end of 300 turns: ${fig(webview.longestTaskMs)} ms (<= 50)`);
  console.log(
    `  send to done, short reply: ${fig(webview.sendToDone300Ms)} ms at 300 turns, ${fig(webview.sendToDoneEmptyMs)} ms in an empty chat: ` +
      `${(webview.sendToDone300Ms / webview.sendToDoneEmptyMs).toFixed(2)}x (<= 1.2x)`,
  );
  console.log(`  assembling the request at 300 turns (what fits the budget, and its JSON): median ${context.assembleMedianMs.toFixed(2)} ms (<= 5)`);
  for (const m of context.perModel) {
    console.log(
      `  bytes sent per turn at 300 turns, ${m.model} (max_tokens ${m.maxTokens ?? 'not stated: setting 32,768'}, budget ${m.inputTokens} tokens = ${m.inputTokens * 4} chars): ` +
        `${m.bytes} bytes, about ${m.estimatedTokens} tokens, ${m.turnsSent} earlier turns (<= the budget; the whole history: ${context.wholeHistoryBytes} bytes)`,
    );
  }
  console.log(`  find in chat at 300 turns, query typed to first result on screen (median): ${find.findRenderedMs.toFixed(1)} ms in a rendered turn, ${find.findUnrenderedMs.toFixed(1)} ms in a turn not rendered yet (<= 50)`);
  console.log(`  storage time per turn at 300 turns: ${fig(storage.hostMsPerTurn)} ms (whole-file rewrite as in 0.1.0: ${fig(storage.hostMsPerTurnRewrite)} ms)`);
  console.log(
    `history: open300Ms=${fig(webview.open300Ms)} list1000Ms=${fig(storage.list1000Ms)} search10kP95Ms=${fig(storage.search10kP95Ms)} ` +
      `postBytesPerChunk=${fig(webview.postBytesPerChunk)} postBytesPerSettingsChange=${fig(webview.postBytesPerSettingsChange)} ` +
      `assemble300Ms=${context.assembleMedianMs.toFixed(2)} findFirstResult300Ms=${find.findRenderedMs.toFixed(1)}/${find.findUnrenderedMs.toFixed(1)} ` +
      context.perModel.map((m) => `bytesPerTurn300.${m.model}=${m.bytes}/${m.inputTokens * 4}`).join(' '),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
