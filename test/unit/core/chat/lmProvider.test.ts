import { strict as assert } from 'node:assert';
import { DEFAULT_MAX_INPUT_TOKENS, DEFAULT_MAX_OUTPUT_TOKENS, LM_SETUP_MODEL_ID, MESSAGE_ID_SPACE, estimateTokens, lmModels, lmRequest, lmSetupModel, surfaceRequest, type LmMessage, type ModelLike } from '../../../../src/core';

const catalogue: ModelLike[] = [
  { valueId: 'swift-chat', name: 'Swift Chat', type: 'text', costInCreditPerUse: 1, isActive: true, max_tokens: 4096 },
  { valueId: 'deep-think', name: 'Deep Think', type: 'text', costInCreditPerUse: 5, isActive: true, max_tokens: 32768 },
  { valueId: 'code-pro', name: 'Code Pro', type: 'text', costInCreditPerUse: 0.5, isActive: true },
  { valueId: 'legacy-chat', name: 'Legacy', type: 'text', costInCreditPerUse: 1, isActive: false },
  { valueId: 'pixel-art', name: 'Pixel Art', type: 'image', costInCreditPerUse: 10, isActive: true },
  { valueId: 'turbo-v2', name: 'Turbo V2', type: 'text', costInCreditPerUse: 2, isActive: true },
];

/**
 * A request of the provider through the pipeline's pure steps, as pipeline/turnService.ts runs them:
 * the request read (lmRequest), then built and judged by the one gate (surfaceRequest).
 */
function lmToServiceMessages(messages: readonly LmMessage[], budget = Number.POSITIVE_INFINITY, holdsKey: (t: string) => boolean = () => false) {
  const r = lmRequest(messages);
  if (!r.ok) return r;
  const built = surfaceRequest({
    prompt: r.prompt,
    also: r.also,
    earlier: r.earlier,
    system: r.system,
    ownSystem: r.system,
    budget,
    gate: { holdsKey, systemSetting: '', instructions: '', hasKey: true, model: 'swift-chat', models: catalogue, cost: 1, balance: undefined },
  });
  if ('messages' in built) return { ok: true as const, messages: built.messages };
  return { ok: false as const, message: built.verdict.kind === 'refuse' ? built.verdict.error.message : 'queued' };
}

const text = (role: LmMessage['role'], ...values: string[]): LmMessage => ({ role, parts: values.map((value) => ({ kind: 'text', value })) });

describe('core: the service models as a language model provider', () => {
  it('lists only usable chat models, each with its cost per message in the detail', () => {
    const list = lmModels(catalogue);
    assert.deepEqual(list.map((m) => m.id), ['swift-chat', 'deep-think', 'code-pro']);
    assert.equal(list[0].detail, '1 credit per message');
    assert.equal(list[1].detail, '5 credits per message');
    assert.equal(list[2].detail, '0.5 credits per message');
    assert.match(list[1].tooltip, /Deep Think.*5 credits per message.*AI Chat credits/);
    // The model's max_tokens is its context: the input budget is what is left after room for the reply.
    assert.deepEqual([list[0].maxInputTokens, list[0].maxOutputTokens], [3072, 1024], 'swift-chat: max_tokens 4096');
    assert.deepEqual([list[1].maxInputTokens, list[1].maxOutputTokens], [28672, 4096], 'deep-think: max_tokens 32768');
    assert.ok(list[1].maxInputTokens + list[1].maxOutputTokens === 32768);
    // No max_tokens: the aiChat.context.maxTokens setting (default 32,768), split the same way.
    assert.equal(DEFAULT_MAX_INPUT_TOKENS, 32768);
    assert.deepEqual([list[2].maxInputTokens, list[2].maxOutputTokens], [28672, DEFAULT_MAX_OUTPUT_TOKENS]);
    assert.deepEqual([lmModels(catalogue, 8000)[2].maxInputTokens, lmModels(catalogue, 8000)[0].maxInputTokens], [6000, 3072], 'the setting counts only for models without max_tokens');
    // Declared tool-calling: VS Code's Chat view lists only such models in its default Agent mode.
    assert.ok(list.every((m) => m.maxInputTokens !== 32768 && m.family === m.id && m.capabilities.toolCalling && !m.capabilities.imageInput));
    assert.deepEqual(lmModels([]), []);
  });

  it('without a key, one model that says to set it (no model of the service, no price)', () => {
    const setup = lmSetupModel();
    assert.equal(setup.id, LM_SETUP_MODEL_ID);
    assert.match(setup.name, /set your API key/);
    assert.match(setup.tooltip, /AI Chat: Set API Key/);
    assert.ok(!catalogue.some((m) => m.valueId === setup.id), 'not a model id of the service');
    assert.ok(setup.capabilities.toolCalling);
  });

  it('turns the request into the service messages: system first, text parts joined, ids like the panel', () => {
    const r = lmToServiceMessages([
      text('user', 'What is ', 'a monad?'),
      text('assistant', 'A monoid in the category of endofunctors.'),
      text('system', 'Answer briefly.'),
      text('user', ''),
      text('user', 'Shorter please'),
    ]);
    assert.ok(r.ok);
    assert.deepEqual(
      r.messages.map((m) => [m.role, m.content]),
      [
        ['system', 'Answer briefly.'],
        ['user', 'What is a monad?'],
        ['assistant', 'A monoid in the category of endofunctors.'],
        ['user', 'Shorter please'],
      ],
    );
    assert.ok(r.messages.slice(1).every((m) => /^msg_[0-9a-f]{3}$/.test(m.id ?? '')), 'every turn has a message id');
  });

  it('refuses tool calls, images and a request that does not end with a user message, saying why', () => {
    const tool = lmToServiceMessages([text('user', 'hi'), { role: 'assistant', parts: [{ kind: 'other', what: 'a tool call or tool result' }] }, text('user', 'go on')]);
    assert.equal(tool.ok, false);
    if (!tool.ok) assert.match(tool.message, /text only.*a tool call or tool result/);
    const image = lmToServiceMessages([{ role: 'user', parts: [{ kind: 'text', value: 'look' }, { kind: 'other', what: 'a image/png attachment' }] }]);
    assert.equal(image.ok, false);
    assert.equal(lmToServiceMessages([text('user', 'q'), text('assistant', 'prefilled')]).ok, false);
    assert.equal(lmToServiceMessages([]).ok, false);
    assert.equal(lmToServiceMessages([text('system', 'only rules')]).ok, false);
  });

  it('a request whose prompt, attached text or system text holds the API key is refused; an earlier turn that held it is left out', () => {
    const key = 'sk-live-0123456789';
    const holds = (t: string) => t.includes(key);
    const prompt = lmToServiceMessages([text('user', `is ${key} right?`)], undefined, holds);
    assert.equal(prompt.ok, false);
    if (!prompt.ok) assert.match(prompt.message, /holds your AI Chat API key.*nothing was sent/);
    const system = lmToServiceMessages([text('system', `.env: KEY=${key}`), text('user', 'hi')], undefined, holds);
    assert.equal(system.ok, false);
    if (!system.ok) assert.match(system.message, /holds your AI Chat API key.*nothing was sent/);
    // The request is every user message after the last answer: an attached file, then the question.
    const attached = lmToServiceMessages([text('user', `.env\nKEY=${key}`), text('user', 'What does my .env say?')], undefined, holds);
    assert.equal(attached.ok, false, 'an attached file that holds the key refuses the request, not just drops the file');
    // A refused request comes back with an empty answer (it failed) before the next one.
    const later = lmToServiceMessages(
      [
        text('user', 'What is a tide?'),
        text('assistant', 'The sea rising.'),
        text('user', `key ${key}`),
        text('assistant', ''),
        text('user', 'What is in my .env?'),
        text('assistant', `It says KEY=${key}`),
        text('user', 'And a neap tide?'),
      ],
      undefined,
      holds,
    );
    assert.ok(later.ok);
    assert.deepEqual(
      later.messages.map((m) => m.content),
      ['What is a tide?', 'The sea rising.', 'What is in my .env?', 'And a neap tide?'],
      'the refused request and the answer that quotes the key are left out',
    );
    assert.ok(lmToServiceMessages([text('user', 'a message about API keys, sk-demo-x')], undefined, holds).ok, 'only the key itself counts');
  });

  it('keeps the newest turns of a very long request within the message id space', () => {
    const many: LmMessage[] = [];
    for (let i = 0; i < MESSAGE_ID_SPACE + 300; i++) many.push(text(i % 2 ? 'assistant' : 'user', `turn ${i}`));
    many.push(text('user', 'the question'));
    const r = lmToServiceMessages(many);
    assert.ok(r.ok);
    assert.ok(r.messages.length <= MESSAGE_ID_SPACE);
    assert.equal(r.messages.at(-1)?.content, 'the question');
    assert.equal(new Set(r.messages.map((m) => m.id)).size, r.messages.length, 'ids are unique');
  });

  it('estimates about four characters a token', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('a'), 1);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('x'.repeat(40_000)), 10_000);
  });
});
