// TurnService (extension/pipeline/common/turnService.ts) with the repository's rules (its `rules`
// port): a surface's request carries them after the project instructions and before the surface's
// own system text, for the files it names; a surface that brings its own instructions gets none;
// every request waits for the rule files to be fresh (found, read, and any changed one read again).
import { strict as assert } from 'node:assert';
import { readRules, requestRules, type RequestRules, type SentRule, type SessionChatRequest } from '../../../../src/core';
import type { RulesPort, SurfaceTurnResult } from '../../../../src/extension/pipeline/common/turnService';
import { echoBackend } from '../../../support/backend';
import { makeTurns } from '../../../support/turns';

const KEY = 'sk-test-key-0123456789';
const noSink = { text: () => undefined, status: () => undefined };
const signal = () => new AbortController().signal;
const tick = () => new Promise((r) => setTimeout(r, 5));

const RULES = readRules([
  { path: '.cursor/rules/py.mdc', content: '---\nglobs: **/*.py\n---\nPython: use type hints.' },
  { path: '.github/copilot-instructions.md', content: 'Copilot: answer in English.' },
]);
const INSTRUCTIONS: SentRule = { path: 'AGENTS.md', why: 'always (the project instructions)' };

function systemOf(req: SessionChatRequest): string | undefined {
  const system = req.messages.filter((m) => m.role === 'system');
  assert.ok(system.length <= 1, 'one system message at most');
  return system[0]?.content;
}

/** The pipeline with a rules port that records the files it is asked for. */
function withRules(opts: { fresh?: () => Promise<unknown>; forRequest?: (files: readonly string[]) => RequestRules } = {}) {
  const calls: string[][] = [];
  let built = 0;
  let freshened = 0;
  const port: RulesPort = {
    fresh: () => {
      freshened++;
      return opts.fresh?.() ?? Promise.resolve();
    },
    forRequest: (files = []) => {
      calls.push([...files]);
      return (opts.forRequest ?? ((f) => requestRules(RULES, { files: f }, INSTRUCTIONS)))(files);
    },
  };
  const requests: SessionChatRequest[] = [];
  const made = makeTurns({
    key: () => KEY,
    model: () => 'swift-chat',
    systemSetting: () => 'USER RULES',
    instructions: () => 'PROJECT RULES',
    backend: echoBackend(requests),
    ports: {
      rules: () => {
        built++;
        return port;
      },
    },
  });
  return { turns: made.turns, calls, requests, built: () => built, freshened: () => freshened };
}

function ran(r: SurfaceTurnResult): Extract<SurfaceTurnResult, { kind: 'ran' }> {
  assert.ok(r.kind === 'ran', JSON.stringify(r));
  return r;
}

describe('TurnService with the repository\'s rules', () => {
  it('run(): the rules go after the project instructions and before the surface\'s own text, for the files given; the rules that went are returned', async () => {
    const w = withRules();
    const result = ran(await w.turns.run({ surface: 'aichat', prompt: 'explain', system: 'SURFACE RULES', files: ['src/a.py'] }, noSink, signal()));
    const expected = requestRules(RULES, { files: ['src/a.py'] }, INSTRUCTIONS);
    assert.deepEqual(w.calls, [['src/a.py']]);
    assert.equal(systemOf(w.requests[0]), `USER RULES\n\nPROJECT RULES\n\n${expected.text}\n\nSURFACE RULES`);
    assert.ok(expected.text.includes('Python: use type hints.'));
    assert.deepEqual(result.rules, expected.sent);
    assert.deepEqual(result.rules?.map((r) => r.path), ['AGENTS.md', '.github/copilot-instructions.md', '.cursor/rules/py.mdc']);
  });

  it('run() without files asks for none (the port adds the active editor\'s), and only the rules for every request go', async () => {
    const w = withRules();
    const result = ran(await w.turns.run({ surface: 'edit', prompt: 'rename x' }, noSink, signal()));
    assert.deepEqual(w.calls, [[]]);
    const system = systemOf(w.requests[0]) ?? '';
    assert.ok(system.startsWith('USER RULES\n\nPROJECT RULES\n\nProject rules from .github/copilot-instructions.md'), system);
    assert.ok(!system.includes('Python: use type hints.'), system);
    assert.deepEqual(result.rules?.map((r) => r.path), ['AGENTS.md', '.github/copilot-instructions.md']);
  });

  it('no rule text: nothing empty is added between the instructions and the surface\'s text', async () => {
    const w = withRules({ forRequest: () => ({ text: '', sent: [] }) });
    const result = ran(await w.turns.run({ surface: 'edit', prompt: 'x', system: 'SURFACE RULES' }, noSink, signal()));
    assert.equal(systemOf(w.requests[0]), 'USER RULES\n\nPROJECT RULES\n\nSURFACE RULES');
    assert.deepEqual(result.rules, []);
  });

  it('ownInstructionsOnly: no rules are sent, and the port is never asked', async () => {
    const w = withRules();
    const result = ran(await w.turns.run({ surface: 'lm', prompt: 'hi', system: 'CALLER RULES', ownInstructionsOnly: true, files: ['src/a.py'] }, noSink, signal()));
    assert.deepEqual(w.calls, [], 'forRequest not called');
    assert.equal(systemOf(w.requests[0]), 'CALLER RULES');
    assert.ok(!JSON.stringify(w.requests[0]).includes('Project rules from'));
    assert.deepEqual(result.rules ?? [], []);
  });

  it('a summary (noRules): the project instructions go, the repository\'s rules do not, and the port is never asked', async () => {
    const w = withRules();
    const result = ran(await w.turns.run({ surface: 'summary', prompt: 'the turns', system: 'SUMMARY RULES', noRules: true }, noSink, signal()));
    assert.deepEqual(w.calls, [], 'forRequest not called');
    assert.equal(systemOf(w.requests[0]), 'USER RULES\n\nPROJECT RULES\n\nSUMMARY RULES');
    assert.deepEqual(result.rules ?? [], []);
  });

  it('rules that make the request too large: refused over budget, naming the rule, with showRules; nothing sent', async () => {
    const big = readRules([{ path: '.cursor/rules/py.mdc', content: `---\nglobs: **/*.py\n---\n${'- a long Python rule line.\n'.repeat(1000)}` }]);
    const w = withRules({ forRequest: (files) => requestRules(big, { files }) });
    const r = await w.turns.run({ surface: 'aichat', prompt: 'hi', files: ['src/a.py'], budget: 3000 }, noSink, signal());
    assert.equal(r.kind, 'refused');
    assert.ok(r.kind === 'refused');
    assert.equal(r.reason, 'overBudget');
    assert.match(r.error.message, /The rule \.cursor\/rules\/py\.mdc alone takes about/);
    assert.ok(r.error.actions.includes('showRules'), JSON.stringify(r.error.actions));
    assert.deepEqual(w.requests, []);
    // The same request about another file goes.
    assert.equal((await w.turns.run({ surface: 'aichat', prompt: 'hi', files: ['src/a.ts'], budget: 3000 }, noSink, signal())).kind, 'ran');
  });

  it("facts() waits for the rules to be fresh, before each request", async () => {
    let resolve!: () => void;
    const ready = new Promise<void>((r) => (resolve = r));
    const w = withRules({ fresh: () => ready });
    let done = false;
    const facts = w.turns.facts().then((f) => {
      done = true;
      return f;
    });
    await tick();
    assert.equal(done, false, 'not before the rule files were read');
    resolve();
    assert.equal((await facts).model, 'swift-chat');
    assert.equal(done, true);
    await w.turns.facts();
    assert.equal(w.freshened(), 2, 'looked at again for the next request');
    // And so does a surface's run: nothing is chosen nor sent before.
    let resolve2!: () => void;
    const w2 = withRules({ fresh: () => new Promise<void>((r) => (resolve2 = r)) });
    let ran2 = false;
    const running = w2.turns.run({ surface: 'aichat', prompt: 'hi', files: ['src/a.py'] }, noSink, signal()).then(() => (ran2 = true));
    await tick();
    assert.equal(ran2, false);
    assert.deepEqual(w2.calls, [], 'the rules are not chosen before they are fresh');
    assert.deepEqual(w2.requests, []);
    resolve2();
    await running;
    assert.equal(w2.requests.length, 1);
    assert.deepEqual(w2.calls, [['src/a.py']]);
  });

  it('without a rules port: nothing about rules is sent or returned', async () => {
    const requests: SessionChatRequest[] = [];
    const { turns } = makeTurns({ key: () => KEY, model: () => 'swift-chat', systemSetting: () => 'USER RULES', instructions: () => 'PROJECT RULES', backend: echoBackend(requests) });
    const result = ran(await turns.run({ surface: 'aichat', prompt: 'hi', system: 'SURFACE RULES', files: ['src/a.py'] }, noSink, signal()));
    assert.equal(systemOf(requests[0]), 'USER RULES\n\nPROJECT RULES\n\nSURFACE RULES');
    assert.deepEqual(result.rules ?? [], []);
  });
});
