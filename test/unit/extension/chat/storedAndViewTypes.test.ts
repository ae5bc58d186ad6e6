import { strict as assert } from 'node:assert';
import {
  ChatErrorSchema, MAX_KEPT_EXTRAS, MAX_KEPT_REASONING, MAX_SUMMARY_TEXT, ReplyFactsSchema, TurnSummarySchema,
  type ChatError, type ChatErrorAction, type ChatErrorKind, type ReplyFacts, type TurnSummary,
} from '../../../../src/core';
import {
  ErrorViewSchema, MAX_EXTRAS, MAX_REASONING, MAX_SUMMARY_VIEW, ReplyMetaSchema, SummaryViewSchema,
  type ErrorAction, type ErrorKind, type ErrorView, type ReplyMeta, type SummaryView,
} from '../../../../src/protocol';

// src/core keeps its own types of what is stored (a reply's error and facts, the summary of earlier
// turns), src/protocol its views of them, and the presenter maps one to the other. Where the two
// have the same shape, each must stay assignable to the other: `npm run typecheck` fails here when
// one changes without the other.
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(check: Mutual<A, B>): Mutual<A, B> => check;

describe('stored types and their views (core and protocol, mapped by the presenter)', () => {
  it('a reply\'s error, its kinds and actions: core\'s ChatError and the protocol\'s ErrorView are assignable to each other', () => {
    assert.equal(same<ChatError, ErrorView>(true), true);
    assert.equal(same<ChatErrorKind, ErrorKind>(true), true);
    assert.equal(same<ChatErrorAction, ErrorAction>(true), true);
    assert.deepEqual(ChatErrorSchema.shape.kind.options, ErrorViewSchema.shape.kind.options);
    assert.deepEqual(ChatErrorSchema.shape.actions.def.element.options, ErrorViewSchema.shape.actions.def.element.options);
  });

  it("a reply's facts: core's ReplyFacts and the protocol's ReplyMeta are assignable to each other, with the same limits", () => {
    assert.equal(same<ReplyFacts, ReplyMeta>(true), true);
    assert.deepEqual(Object.keys(ReplyFactsSchema.shape), Object.keys(ReplyMetaSchema.shape));
    assert.equal(MAX_KEPT_REASONING, MAX_REASONING);
    assert.equal(MAX_KEPT_EXTRAS, MAX_EXTRAS);
  });

  it('the summary of earlier turns: what its card shows of the stored one is the protocol\'s SummaryView, its whole text included', () => {
    assert.equal(same<Omit<TurnSummary, 'messageCount' | 'createdAt'>, SummaryView>(true), true);
    assert.deepEqual(Object.keys(TurnSummarySchema.shape).filter((k) => k !== 'messageCount' && k !== 'createdAt'), Object.keys(SummaryViewSchema.shape));
    assert.equal(MAX_SUMMARY_TEXT, MAX_SUMMARY_VIEW);
  });
});
