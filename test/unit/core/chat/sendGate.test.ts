// The one gate of every turn (core/chat/sendGate.ts): each refusal reason, worded once, the same
// through the chat panel (ChatController), @aichat and the language model provider (surfaceRequest,
// which pipeline/turnService.ts runs for both).
import { strict as assert } from 'node:assert';
import {
  REFUSAL_REASONS, actionCommand, actionTitle, refusalView,
  selectContext, sendGate, surfaceRequest, type ChatBackend, type GateInput, type ModelLike, type RefusalReason,
} from '../../../../src/core';
import { ErrorActionSchema } from '../../../../src/protocol';
import { makeController } from '../../../support/session';
import { makeTurns } from '../../../support/turns';

const KEY = 'sk-gate-check-0123456789abcdef';
const models: ModelLike[] = [
  { valueId: 'swift-chat', name: 'Swift Chat', type: 'text', costInCreditPerUse: 1, isActive: true },
  { valueId: 'odd-chat', name: 'Odd Chat', type: 'text', costInCreditPerUse: Number.NaN, isActive: true, priceUnusable: true },
];
const holdsKey = (t: string) => t.includes(KEY);
const base: GateInput = {
  text: 'What is a neap tide?',
  holdsKey,
  systemSetting: 'Be brief.',
  instructions: 'Project instructions (AGENTS.md): answer in English.',
  hasKey: true,
  model: 'swift-chat',
  models,
  cost: 1,
  balance: 100,
};

/** An input that makes the gate refuse for `reason` (and pass every check before it). */
function refusing(reason: RefusalReason): GateInput {
  switch (reason) {
    case 'tooLong':
      return { ...base, maxChars: 5 };
    case 'busy':
      return { ...base, busy: true, canQueue: false };
    case 'holdsKey':
      return { ...base, text: `is ${KEY} right?` };
    case 'systemPromptHoldsKey':
      return { ...base, systemSetting: `My key: ${KEY}` };
    case 'instructionsHoldKey':
      return { ...base, instructions: `Use ${KEY} for tests.` };
    case 'noKey':
      return { ...base, hasKey: false };
    case 'noModel':
      return { ...base, model: '' };
    case 'unusableModel':
      return { ...base, model: 'odd-chat' };
    case 'cannotPay':
      return { ...base, balance: 0 };
    case 'overBudget':
      return { ...base, fit: selectContext({ systemPrompt: '', message: 'x'.repeat(4000), earlier: [], budget: 100 }) };
  }
}

/** The panel's controller, with the same facts: what its send shows as the error of the send. */
async function panelRefusal(input: GateInput): Promise<{ message: string | undefined; sent: number }> {
  let sent = 0;
  const backend: ChatBackend = {
    chat: () => Promise.reject(new Error('not used')),
    chatStream: async () => {
      sent++;
      throw new Error('sent');
    },
  };
  const t = makeController({
    backend,
    settings: { model: input.model },
    modelCost: () => input.cost,
    controller: {
      models: () => ({ models: input.models, loading: false, error: undefined, costOf: () => input.cost }),
      hasKey: () => input.hasKey,
      turns: makeTurns({
        key: () => (input.hasKey ? 'sk-another-key-0000' : undefined),
        model: () => input.model,
        models: () => input.models,
        costOf: () => input.cost,
        balance: () => input.balance,
        holds: input.holdsKey,
        systemSetting: () => input.systemSetting,
        instructions: () => input.instructions,
      }).turns,
    },
  });
  await t.controller.send(input.text);
  return { message: t.session.sendError?.message, sent };
}

describe('the send gate: one verdict for every surface', () => {
  for (const reason of REFUSAL_REASONS) {
    it(`${reason}: refused with one wording, the same through the panel, @aichat and the language model provider`, async () => {
      const input = refusing(reason);
      const verdict = sendGate(input);
      assert.equal(verdict.kind, 'refuse');
      assert.ok(verdict.kind === 'refuse');
      assert.equal(verdict.reason, reason);
      assert.deepEqual(verdict.error, refusalView(reason, input));
      assert.ok(verdict.error.message.length > 20, 'says why');
      assert.ok(!verdict.error.message.includes(KEY), 'never repeats the key');
      // @aichat and the provider: the request built and judged by the pipeline's pure step.
      if (reason !== 'overBudget' && reason !== 'tooLong' && reason !== 'busy') {
        for (const surface of ['aichat', 'lm'] as const) {
          const built = surfaceRequest({
            prompt: input.text,
            system: [input.systemSetting, input.instructions].join('\n\n'),
            budget: 100_000,
            gate: input,
          });
          assert.ok(!('messages' in built), `${surface}: nothing sent`);
          assert.ok(built.verdict.kind === 'refuse' && built.verdict.reason === reason, `${surface}: ${JSON.stringify(built.verdict)}`);
          assert.equal(built.verdict.kind === 'refuse' && built.verdict.error.message, verdict.error.message, `${surface}: the same wording`);
        }
      }
      // The panel: the reasons it shows as the send's error carry the same wording, and nothing is sent.
      if (['holdsKey', 'systemPromptHoldsKey', 'instructionsHoldKey', 'noKey', 'unusableModel'].includes(reason)) {
        const panel = await panelRefusal(input);
        assert.equal(panel.sent, 0, 'the panel sent nothing');
        assert.equal(panel.message, verdict.error.message, 'the panel says it in the same words');
      }
    });
  }

  it('the key in the system prompt or the project instructions: the panel sends nothing (as @aichat), with a way to where the key is', async () => {
    const setting = sendGate(refusing('systemPromptHoldsKey'));
    assert.ok(setting.kind === 'refuse');
    assert.deepEqual(setting.error.actions.map((a) => actionCommand(a)), [{ command: 'workbench.action.openSettings', arguments: ['aiChat.systemPrompt'] }]);
    const file = sendGate(refusing('instructionsHoldKey'));
    assert.ok(file.kind === 'refuse');
    assert.deepEqual(file.error.actions.map((a) => actionCommand(a)?.command), ['aiChat.openInstructions', 'aiChat.toggleInstructions']);
    for (const input of [refusing('systemPromptHoldsKey'), refusing('instructionsHoldKey')]) assert.equal((await panelRefusal(input)).sent, 0);
  });

  it('a message with nothing wrong is sent; one typed while a reply runs is queued when the surface has a queue', () => {
    assert.deepEqual(sendGate(base), { kind: 'send' });
    assert.deepEqual(sendGate({ ...base, busy: true, canQueue: true }), { kind: 'queue' });
  });

  it('every action has a title, and every action but the chat\'s own (Retry, fewer messages) a command', () => {
    for (const action of ErrorActionSchema.options) {
      assert.ok(actionTitle(action).length > 2);
      assert.equal(actionCommand(action) === undefined, action === 'retry' || action === 'fewerMessages', action);
    }
  });
});
