import { strict as assert } from 'node:assert';
import type * as z from 'zod/mini';
import { ProtocolError, RequestValidationError } from '../../../src/client/errors';
import {
  BalanceResponseSchema,
  ChatResponseSchema,
  ErrorBodySchema,
  ModelListSchema,
  ModelSchema,
  StreamEventSchema,
  SubscriptionListSchema,
  isValidModelId,
} from '../../../src/client/schemas';
import { parseResponse, validateChatRequest } from '../../../src/client/validate';

const user = (content = 'hi', extra: Record<string, unknown> = {}) => ({ role: 'user', content, ...extra });

describe('client schemas', () => {
  describe('validateChatRequest: valid requests', () => {
    const valid: Array<[string, unknown]> = [
      ['one message', { messages: [user()] }],
      ['every role', { messages: [{ role: 'system', content: 's' }, user(), { role: 'assistant', content: 'a' }] }],
      ['empty content', { messages: [user('')] }],
      ['message ids', { messages: [user('a', { id: 'msg_000' }), user('b', { id: 'msg_a9f' })] }],
      ['model with dashes', { messages: [user()], model: 'deep-think' }],
      ['temperature 0', { messages: [user()], temperature: 0 }],
      ['temperature 2', { messages: [user()], temperature: 2 }],
      ['temperature 1.5', { messages: [user()], temperature: 1.5 }],
      ['stream and search booleans', { messages: [user()], stream: true, search: false }],
      ['unknown extra fields', { messages: [user('x', { note: 1 })], extra: 'kept' }],
    ];
    for (const [name, req] of valid) {
      it(`accepts ${name}`, () => {
        const out = validateChatRequest(req);
        assert.deepEqual(out, req);
      });
    }
  });

  describe('validateChatRequest: invalid requests name field and rule', () => {
    const invalid: Array<[string, unknown, string, RegExp]> = [
      ['not an object', null, '(request)', /object/],
      ['an array', [user()], '(request)', /object/],
      ['no messages field', {}, 'messages', /required/],
      ['messages not an array', { messages: 'hi' }, 'messages', /array/],
      ['empty messages', { messages: [] }, 'messages', /at least 1/],
      ['message not an object', { messages: ['hi'] }, 'messages[0]', /object/],
      ['missing role', { messages: [{ content: 'x' }] }, 'messages[0].role', /one of user, system, assistant/],
      ['bad role', { messages: [user(), { role: 'tool', content: 'x' }] }, 'messages[1].role', /one of user, system, assistant/],
      ['missing content', { messages: [{ role: 'user' }] }, 'messages[0].content', /required/],
      ['content not a string', { messages: [user(), user(), { role: 'user', content: 42 }] }, 'messages[2].content', /string/],
      ['id too long', { messages: [user(), user(), user('x', { id: 'msg_abcd' })] }, 'messages[2].id', /\^msg_\[0-9a-f\]\{3\}\$/],
      ['id upper-case hex', { messages: [user('x', { id: 'msg_ABC' })] }, 'messages[0].id', /must match/],
      ['id wrong prefix', { messages: [user('x', { id: 'm_abc' })] }, 'messages[0].id', /must match/],
      ['id not a string', { messages: [user('x', { id: 7 })] }, 'messages[0].id', /string/],
      ['duplicate id', { messages: [user('a', { id: 'msg_001' }), user('b', { id: 'msg_001' })] }, 'messages[1].id', /unique/],
      ['model with digits', { messages: [user()], model: 'turbo-v2' }, 'model', /\^\[a-z-\]\+\$/],
      ['model upper-case', { messages: [user()], model: 'Swift' }, 'model', /must match/],
      ['empty model', { messages: [user()], model: '' }, 'model', /must match/],
      ['model not a string', { messages: [user()], model: 3 }, 'model', /string/],
      ['temperature below 0', { messages: [user()], temperature: -0.1 }, 'temperature', />= 0/],
      ['temperature above 2', { messages: [user()], temperature: 2.01 }, 'temperature', /<= 2/],
      ['temperature NaN', { messages: [user()], temperature: Number.NaN }, 'temperature', /number/],
      ['temperature infinite', { messages: [user()], temperature: Number.POSITIVE_INFINITY }, 'temperature', /number/],
      ['temperature a string', { messages: [user()], temperature: '1' }, 'temperature', /number/],
      ['stream not a boolean', { messages: [user()], stream: 'true' }, 'stream', /boolean/],
      ['search not a boolean', { messages: [user()], search: 1 }, 'search', /boolean/],
    ];
    for (const [name, req, field, rule] of invalid) {
      it(`rejects ${name} (${field})`, () => {
        assert.throws(
          () => validateChatRequest(req),
          (e: unknown) => {
            assert.ok(e instanceof RequestValidationError, String(e));
            assert.equal(e.kind, 'validation');
            assert.equal(e.field, field);
            assert.match(e.rule, rule);
            assert.ok(e.message.includes(field), e.message);
            return true;
          },
        );
      });
    }

    it('reports every issue, the first one as field/rule', () => {
      try {
        validateChatRequest({ messages: [{ role: 'bot', content: 1 }], temperature: 5 });
        assert.fail('expected a RequestValidationError');
      } catch (e) {
        assert.ok(e instanceof RequestValidationError);
        assert.deepEqual(
          e.issues.map((i) => i.field),
          ['messages[0].role', 'messages[0].content', 'temperature'],
        );
        assert.match(e.message, /and 2 more/);
      }
    });
  });

  describe('response schemas', () => {
    const chat = {
      id: '2b4c8f0e-8a51-4c6b-9f0e-2f1d1b1a1c1d',
      content: 'Hello',
      role: 'assistant',
      createdAt: '2026-11-21T10:00:00.000Z',
      creditsUsed: 1,
      creditsRemaining: 999,
      model: 'swift-chat',
    };
    const balance = {
      balance: {
        regularBalance: 950,
        dailyBalance: 50,
        totalBalance: 1000,
        hasDailyCredit: true,
        credits: [{ id: 'c', userId: 'u', amount: 500, expiresAt: '2026-11-25T00:00:00Z', createdAt: 'x', type: 'purchase', extendedExpiresAt: null, usedAmount: 0 }],
        dailyCredit: { id: 'd', userId: 'u', grantedAmount: 50, amount: 50, grantedDate: '2026-11-21', used: false },
      },
      success: true,
      timestamp: '2026-11-21T10:00:00.000Z',
    };
    const model = {
      id: 'id',
      valueId: 'swift-chat',
      name: 'Swift Chat',
      type: 'text',
      costInCreditPerUse: 1,
      isActive: true,
      createdAt: 'x',
      totalUses: '10',
      totalCreditsSpent: '10',
      max_tokens: 4096,
    };

    type Case = [string, z.ZodMiniType, unknown, string | null];
    const omit = (o: Record<string, unknown>, k: string) => {
      const c = { ...o };
      delete c[k];
      return c;
    };
    const withBalance = (b: Record<string, unknown>) => ({ ...balance, balance: b });
    const cases: Case[] = [
      ['chat response', ChatResponseSchema, chat, null],
      ['chat response without optional model', ChatResponseSchema, omit(chat, 'model'), null],
      ['chat response with extra fields', ChatResponseSchema, { ...chat, tokens: 3 }, null],
      ...(['id', 'content', 'role', 'createdAt', 'creditsUsed', 'creditsRemaining'].map(
        (k) => [`chat response without ${k}`, ChatResponseSchema, omit(chat, k), k] as Case,
      )),
      ['chat response with role user', ChatResponseSchema, { ...chat, role: 'user' }, 'role'],
      ['chat response with creditsUsed a string', ChatResponseSchema, { ...chat, creditsUsed: '1' }, 'creditsUsed'],
      ['balance', BalanceResponseSchema, balance, null],
      ['minimal balance', BalanceResponseSchema, { balance: { regularBalance: 0, dailyBalance: 0, totalBalance: 0 } }, null],
      ['balance with null dailyCredit', BalanceResponseSchema, withBalance({ ...balance.balance, dailyCredit: null }), null],
      ['balance without balance', BalanceResponseSchema, { success: true }, 'balance'],
      ['balance without totalBalance', BalanceResponseSchema, withBalance(omit(balance.balance, 'totalBalance')), 'balance.totalBalance'],
      ['balance with totalBalance a string', BalanceResponseSchema, withBalance({ ...balance.balance, totalBalance: '1000' }), 'balance.totalBalance'],
      ['balance without regularBalance', BalanceResponseSchema, withBalance(omit(balance.balance, 'regularBalance')), 'balance.regularBalance'],
      ['balance with credit amount missing', BalanceResponseSchema, withBalance({ ...balance.balance, credits: [{ id: 'x' }] }), 'balance.credits[0].amount'],
      ['balance with hasDailyCredit a string', BalanceResponseSchema, withBalance({ ...balance.balance, hasDailyCredit: 'yes' }), 'balance.hasDailyCredit'],
      ['models', ModelListSchema, [model, omit(model, 'max_tokens'), { ...model, valueId: 'turbo-v2' }], null],
      ['models: not an array', ModelListSchema, { models: [] }, '(body)'],
      ...(['valueId', 'name', 'type', 'costInCreditPerUse', 'isActive'].map(
        (k) => [`model without ${k}`, ModelListSchema, [model, omit(model, k)], `[1].${k}`] as Case,
      )),
      ['model with totalUses a number', ModelSchema, { ...model, totalUses: 10 }, 'totalUses'],
      ['subscriptions', SubscriptionListSchema, [{ id: 's', name: 'Pro', features: ['a'], price: 9.99 }, { name: 'Free', price: 0 }], null],
      ['subscription without price', SubscriptionListSchema, [{ id: 's', name: 'Pro', features: [] }], '[0].price'],
      ['subscription with features not strings', SubscriptionListSchema, [{ name: 'Pro', price: 1, features: [1] }], '[0].features[0]'],
      ['error body', ErrorBodySchema, { error: 'x', code: 'AUTH_FAILED', success: false, traceId: 't' }, null],
      ['error body with credits', ErrorBodySchema, { error: 'x', code: 'INSUFFICIENT_CREDITS', success: false, creditsRemaining: 0 }, null],
      ['error body without code', ErrorBodySchema, { error: 'x', success: false }, 'code'],
      ['stream event f', StreamEventSchema, { event: 'f', messageId: 'm' }, null],
      ['stream event f without messageId (tolerated: the reply is paid for)', StreamEventSchema, { event: 'f' }, null],
      ['stream event 0', StreamEventSchema, { event: '0', data: '' }, null],
      ['stream event 0 with numeric data', StreamEventSchema, { event: '0', data: 1 }, 'data'],
      ['stream event e', StreamEventSchema, { event: 'e', finishReason: 'error', isContinued: false }, null],
      ['stream event e with isContinued a string', StreamEventSchema, { event: 'e', finishReason: 'error', isContinued: 'no' }, 'isContinued'],
      ['stream event d', StreamEventSchema, { event: 'd', finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 2 } }, null],
      ['stream event d without usage', StreamEventSchema, { event: 'd', finishReason: 'stop' }, null],
      ['stream event d with usage missing a count', StreamEventSchema, { event: 'd', finishReason: 'stop', usage: { promptTokens: 1 } }, null],
      ['stream event d with a mistyped count', StreamEventSchema, { event: 'd', finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 'x' } }, 'usage.completionTokens'],
      ['stream event e with usage', StreamEventSchema, { event: 'e', finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 2 }, isContinued: false }, null],
      ['stream event 3', StreamEventSchema, { event: '3', error: 'boom' }, null],
      ['stream event 3 without text', StreamEventSchema, { event: '3' }, 'error'],
      ['stream event of unknown kind', StreamEventSchema, { event: 'x' }, 'event'],
    ];
    for (const [name, schema, value, badField] of cases) {
      it(badField === null ? `parses ${name}` : `rejects ${name}, naming ${badField}`, () => {
        if (badField === null) {
          assert.deepEqual(parseResponse(schema, value, 'response'), value);
        } else {
          assert.throws(
            () => parseResponse(schema, value, 'response'),
            (e: unknown) => {
              assert.ok(e instanceof ProtocolError, String(e));
              assert.equal(e.kind, 'protocol');
              assert.equal(e.field, badField);
              assert.ok(e.message.includes(badField), e.message);
              return true;
            },
          );
        }
      });
    }
  });

  it('isValidModelId follows ^[a-z-]+$', () => {
    assert.equal(isValidModelId('swift-chat'), true);
    assert.equal(isValidModelId('turbo-v2'), false);
    assert.equal(isValidModelId(''), false);
  });
});
