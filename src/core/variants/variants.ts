// The variants of a reply (Retry with…): every reply of one question, each made by a model of the
// user's choice, kept side by side. The conversation's `messages` is the line the chat shows and
// sends (one variant of each reply, the one shown); its `variants` holds the others. Each variant
// names its question (`variantOf`); the log keeps them all and which one is shown
// (conversationLog.ts), so a reload, another window and History see them. VS Code-free.
import { nextMessageId, type Conversation, type StoredMessage } from '../chat/conversation';
import { replyMetaText } from '../../wording';

/**
 * Every message of the conversation, in an order that does not depend on the variant shown (so that
 * showing another one changes nothing of what is stored): the line with each reply's oldest variant
 * in its place, then the other variants, oldest first.
 */
export function storedMessages(conv: Pick<Conversation, 'messages' | 'variants'>): StoredMessage[] {
  if (!conv.variants?.length) return conv.messages;
  // With branches (src/core/variants/branches.ts), every message oldest first.
  if ([...conv.messages, ...conv.variants].some((m) => m.branchOf !== undefined || m.branch !== undefined)) return [...conv.messages, ...conv.variants].sort(byAge);
  const placed = new Set<StoredMessage>();
  const line = conv.messages.map((m) => {
    const oldest = m.variantOf ? variantsOf(conv, m)[0] : m;
    placed.add(oldest);
    return oldest;
  });
  const others = [...conv.messages, ...conv.variants].filter((m) => m.variantOf !== undefined && !placed.has(m)).sort(byAge);
  return [...line, ...others];
}

/** The variants of `reply` (shown or not), oldest first; one (itself) for a reply without others. */
export function variantsOf(conv: Pick<Conversation, 'messages' | 'variants'>, reply: StoredMessage): StoredMessage[] {
  const q = reply.variantOf;
  if (!q || !conv.variants?.length) return [reply];
  return [reply, ...conv.variants.filter((v) => v.variantOf === q && v !== reply)].sort(byAge);
}

/** Oldest first: by the time each was asked for, then by id (ids count up). */
export function byAge(a: StoredMessage, b: StoredMessage): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Where a shown reply stands among its variants: "2 / 3" (only for a reply with others). */
export interface VariantPlace {
  /** 1-based. */
  index: number;
  count: number;
}

/** The place of each shown reply that has variants, by its id (a quick pass: one map of the hidden ones). */
export function variantPlaces(conv: Pick<Conversation, 'messages' | 'variants'>): Map<string, VariantPlace> {
  const out = new Map<string, VariantPlace>();
  if (!conv.variants?.length) return out;
  const hidden = new Map<string, StoredMessage[]>();
  for (const v of conv.variants) if (v.variantOf) hidden.set(v.variantOf, [...(hidden.get(v.variantOf) ?? []), v]);
  for (const m of conv.messages) {
    if (m.role !== 'assistant' || !m.variantOf || !hidden.has(m.variantOf)) continue;
    const all = variantsOf(conv, m);
    out.set(m.id, { index: all.indexOf(m) + 1, count: all.length });
  }
  return out;
}

/**
 * A new variant of the reply to `question` (already in the conversation), shown in place of the one
 * shown now, which stays as a variant. The new reply is made here (streaming, no text yet).
 */
export function addVariant(conv: Conversation, question: StoredMessage, now: Date): StoredMessage {
  const at = conv.messages.indexOf(question);
  const shown = at >= 0 ? conv.messages[at + 1] : undefined;
  // (In the branch of its question, as the reply it stands beside: branches.ts.)
  const branch = question.branchOf !== undefined ? question.id : question.branch;
  const reply: StoredMessage = { id: nextMessageId(conv), role: 'assistant', content: '', createdAt: now.toISOString(), status: 'streaming', variantOf: question.id, ...(branch !== undefined ? { branch } : {}) };
  if (shown?.role === 'assistant') {
    // The first variant: the reply it stands beside names its question from now on.
    shown.variantOf = question.id;
    conv.variants = [...(conv.variants ?? []), shown];
    conv.messages[at + 1] = reply;
  } else if (at >= 0) conv.messages.splice(at + 1, 0, reply);
  else conv.messages.push(reply);
  conv.updatedAt = reply.createdAt;
  return reply;
}

/**
 * Shows the variant `step` places from the one shown (`reply`), or the one with id `to`: it takes
 * the reply's place in the line the chat shows and sends. The new one, or undefined when none.
 */
export function showVariant(conv: Conversation, reply: StoredMessage, target: { step: number } | { to: string }): StoredMessage | undefined {
  const at = conv.messages.indexOf(reply);
  if (at < 0) return undefined;
  const all = variantsOf(conv, reply);
  const next = 'to' in target ? all.find((v) => v.id === target.to) : all[all.indexOf(reply) + target.step];
  if (!next || next === reply) return undefined;
  conv.messages[at] = next;
  conv.variants = (conv.variants ?? []).map((v) => (v === next ? reply : v));
  return next;
}

/** Takes a variant out (one that failed before any text): the one shown before it comes back in its place. */
export function dropVariant(conv: Conversation, reply: StoredMessage, previous: StoredMessage | undefined): void {
  const at = conv.messages.indexOf(reply);
  const back = previous && conv.variants?.includes(previous) ? previous : undefined;
  if (at >= 0) {
    if (back) conv.messages[at] = back;
    else conv.messages.splice(at, 1);
  }
  if (conv.variants) conv.variants = conv.variants.filter((v) => v !== back && v !== reply);
}

/** Variants whose question is no longer in the conversation (Edit took it out) go with it; the turns of other branches stay. */
export function dropOrphanVariants(conv: Conversation): void {
  if (!conv.variants?.length) return;
  const questions = new Set([...conv.messages, ...conv.variants].filter((m) => m.role === 'user').map((m) => m.id));
  const kept = conv.variants.filter((v) => v.variantOf === undefined || questions.has(v.variantOf));
  if (kept.length !== conv.variants.length) conv.variants = kept.length ? kept : undefined;
  if (!conv.variants?.length) delete conv.variants;
}

/**
 * The conversation's line and its variants from every message as the log holds them (in log
 * order) and the variant shown of each question (`shown`: question id → reply id; a question with
 * none shows its newest). A message that names no question, or a question not in the line, stays
 * in the line where it is; each question's variants take one place in the line, right after it.
 */
export function arrangeVariants(all: readonly StoredMessage[], shown: ReadonlyMap<string, string>): { messages: StoredMessage[]; variants: StoredMessage[] } {
  const groups = new Map<string, StoredMessage[]>();
  for (const m of all) if (m.role === 'assistant' && m.variantOf) groups.set(m.variantOf, [...(groups.get(m.variantOf) ?? []), m]);
  if (groups.size === 0) return { messages: [...all], variants: [] };
  const questions = new Set(all.filter((m) => m.role === 'user').map((m) => m.id));
  const messages: StoredMessage[] = [];
  const variants: StoredMessage[] = [];
  const placed = new Set<string>();
  for (const m of all) {
    const q = m.role === 'assistant' ? m.variantOf : undefined;
    if (q !== undefined && questions.has(q)) continue;
    messages.push(m);
    const group = m.role === 'user' && !placed.has(m.id) ? groups.get(m.id) : undefined;
    if (!group) continue;
    placed.add(m.id);
    const byTime = [...group].sort(byAge);
    const pick = byTime.find((v) => v.id === shown.get(m.id)) ?? byTime[byTime.length - 1];
    messages.push(pick);
    for (const v of group) if (v !== pick) variants.push(v);
  }
  return { messages, variants };
}

/** The variant shown of each reply that has variants: question id → reply id. */
export function shownVariants(conv: Pick<Conversation, 'messages' | 'variants'>): Map<string, string> {
  const out = new Map<string, string>();
  if (conv.variants?.length) for (const m of conv.messages) if (m.role === 'assistant' && m.variantOf) out.set(m.variantOf, m.id);
  return out;
}

/** Where `reply` stands among its variants, when it has others. */
export function variantPlace(conv: Pick<Conversation, 'messages' | 'variants'>, reply: StoredMessage): VariantPlace | undefined {
  if (!reply.variantOf || !conv.variants?.length) return undefined;
  const all = variantsOf(conv, reply);
  return all.length > 1 ? { index: all.indexOf(reply) + 1, count: all.length } : undefined;
}

/** A variant as Compare names it: "2 / 3 · deep-think · 5 credits · <when it was asked for>". */
export function variantTitle(all: readonly StoredMessage[], v: StoredMessage): string {
  const when = new Date(v.createdAt);
  const parts = [`${all.indexOf(v) + 1} / ${all.length}`];
  if (v.meta) parts.push(replyMetaText({ model: v.meta.model, ...(v.meta.credits !== undefined ? { credits: v.meta.credits } : {}) }));
  if (!Number.isNaN(when.getTime())) parts.push(when.toLocaleString());
  return parts.join(' · ');
}
