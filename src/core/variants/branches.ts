// The branches of a conversation (Edit of an earlier question): a branch is a variant of a question
// whose later turns go with it. The edited question names the first question of its place
// (`branchOf`, the root); every message after a branch's question names it (`branch`, appended
// so, never rewritten), so each branch's turns find their place whatever came after them in the
// log. The conversation's `messages` stays the line the chat shows and sends (one question of each
// place, and the turns of its branch); `variants` holds what is not shown: replies' variants and
// the turns of the other branches. Which question is shown of each place is a `b` record of the
// log (conversationLog.ts). VS Code-free.
import { appendMessage, dropStaleSummary, type Conversation, type StoredMessage } from '../chat/conversation';
import type { SentItem } from '../context/sentWith';
import { arrangeVariants, byAge, shownVariants, type VariantPlace } from './variants';

/** The branch a message appended after `m` belongs to (none: the conversation's first branch). */
export function branchAfter(m: StoredMessage | undefined): string | undefined {
  return m?.branchOf !== undefined ? m.id : m?.branch;
}

/** Whether any message of the conversation starts or belongs to a branch. */
export function hasBranches(conv: Pick<Conversation, 'messages' | 'variants'>): boolean {
  const branchy = (m: StoredMessage) => m.branchOf !== undefined || m.branch !== undefined;
  return conv.messages.some(branchy) || !!conv.variants?.some(branchy);
}

/** The questions of each place with branches (root id → the root, then the edited ones), from every message. */
function placesOf(all: readonly StoredMessage[]): Map<string, StoredMessage[]> {
  const users = new Map<string, StoredMessage>();
  for (const m of all) if (m.role === 'user') users.set(m.id, m);
  const out = new Map<string, StoredMessage[]>();
  for (const m of all) {
    const root = m.role === 'user' && m.branchOf !== undefined && m.branchOf !== m.id ? users.get(m.branchOf) : undefined;
    if (!root || root.branchOf !== undefined) continue;
    const group = out.get(root.id) ?? [root];
    group.push(m);
    out.set(root.id, group);
  }
  for (const [k, group] of out) out.set(k, group.sort(byAge));
  return out;
}

/**
 * The line and what is not shown, from every message (in log order) and the choices: the reply
 * shown of each question (`replies`: question id → reply id) and the question shown of each place
 * (`branches`: root id → question id). A place without a choice shows its newest question, a
 * question its newest reply. A message of a branch whose question is gone joins the first branch.
 */
export function arrangeLine(
  all: readonly StoredMessage[],
  replies: ReadonlyMap<string, string>,
  branches: ReadonlyMap<string, string>,
): { messages: StoredMessage[]; variants: StoredMessage[] } {
  if (!all.some((m) => m.branchOf !== undefined || m.branch !== undefined)) return arrangeVariants(all, replies);
  const questions = new Map<string, StoredMessage>();
  for (const m of all) if (m.role === 'user') questions.set(m.id, m);
  const places = placesOf(all);
  const placed = new Set<StoredMessage>();
  for (const group of places.values()) for (const m of group.slice(1)) placed.add(m);
  const answers = new Map<string, StoredMessage[]>();
  const chains = new Map<string, StoredMessage[]>();
  for (const m of all) {
    if (m.role === 'assistant' && m.variantOf !== undefined && questions.has(m.variantOf)) {
      answers.set(m.variantOf, [...(answers.get(m.variantOf) ?? []), m]);
      continue;
    }
    if (placed.has(m)) continue;
    const head = m.branch !== undefined ? questions.get(m.branch) : undefined;
    const tag = head?.branchOf !== undefined ? head.id : '';
    chains.set(tag, [...(chains.get(tag) ?? []), m]);
  }
  const line: StoredMessage[] = [];
  const show = (m: StoredMessage) => {
    line.push(m);
    const group = m.role === 'user' ? answers.get(m.id) : undefined;
    if (!group) return;
    const byTime = [...group].sort(byAge);
    line.push(byTime.find((v) => v.id === replies.get(m.id)) ?? byTime[byTime.length - 1]);
  };
  const walked = new Set<string>();
  const walk = (tag: string): void => {
    if (walked.has(tag)) return;
    walked.add(tag);
    for (const m of chains.get(tag) ?? []) {
      const group = m.role === 'user' ? places.get(m.id) : undefined;
      const pick = group ? (group.find((q) => q.id === branches.get(m.id)) ?? group[group.length - 1]) : m;
      show(pick);
      // The question of another branch: its turns follow it, and this branch's stay behind.
      if (pick !== m || (pick.branchOf !== undefined && !group)) return walk(pick.id);
    }
  };
  walk('');
  const onLine = new Set(line);
  return { messages: line, variants: all.filter((m) => !onLine.has(m)) };
}

/** The question shown of each place of the line (root id → question id), every question of it included. */
export function lineBranches(conv: Pick<Conversation, 'messages'>): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of conv.messages) if (m.role === 'user') out.set(m.branchOf ?? m.id, m.id);
  return out;
}

/** The question shown of each place with branches (root id → question id): the log's `b` records. */
export function shownBranches(conv: Pick<Conversation, 'messages' | 'variants'>): Map<string, string> {
  const out = new Map<string, string>();
  if (!hasBranches(conv)) return out;
  const roots = new Set<string>();
  for (const m of [...conv.messages, ...(conv.variants ?? [])]) if (m.role === 'user' && m.branchOf !== undefined) roots.add(m.branchOf);
  for (const m of conv.messages) {
    const root = m.role === 'user' ? (m.branchOf ?? m.id) : undefined;
    if (root !== undefined && roots.has(root)) out.set(root, m.id);
  }
  return out;
}

/** The choices made while the conversation is open, of places and replies not shown now (a hidden branch keeps its own). */
const remembered = new WeakMap<Conversation, { replies: Map<string, string>; branches: Map<string, string> }>();

/** Keeps the choices a log recorded (replayed), so a branch shown again shows what it showed. */
export function rememberChoices(conv: Conversation, replies: ReadonlyMap<string, string>, branches: ReadonlyMap<string, string>): void {
  remembered.set(conv, { replies: new Map(replies), branches: new Map(branches) });
}

/** What the line shows now is remembered (for when it is not shown any more). */
function remember(conv: Conversation): { replies: Map<string, string>; branches: Map<string, string> } {
  const memo = remembered.get(conv) ?? { replies: new Map<string, string>(), branches: new Map<string, string>() };
  for (const [q, m] of shownVariants(conv)) memo.replies.set(q, m);
  for (const [q, m] of lineBranches(conv)) memo.branches.set(q, m);
  remembered.set(conv, memo);
  return memo;
}

/**
 * The line again from every message of the conversation, with `branches` (root id → question id)
 * over what it shows now and what it showed before. The arrays are changed in place.
 */
export function rearrange(conv: Conversation, branches: ReadonlyMap<string, string> = lineBranches(conv)): void {
  const memo = remember(conv);
  for (const [q, m] of branches) memo.branches.set(q, m);
  const all = [...conv.messages, ...(conv.variants ?? [])].sort(byAge);
  const { messages, variants } = arrangeLine(all, memo.replies, memo.branches);
  conv.messages.splice(0, conv.messages.length, ...messages);
  if (variants.length) conv.variants = variants;
  else delete conv.variants;
}

/** Where a question stands among the questions of its place: "1 / 2" (only for a place with branches), by question id. */
export function branchPlaces(conv: Pick<Conversation, 'messages' | 'variants'>): Map<string, VariantPlace> {
  const out = new Map<string, VariantPlace>();
  if (!hasBranches(conv)) return out;
  const places = placesOf([...conv.messages, ...(conv.variants ?? [])]);
  for (const m of conv.messages) {
    const group = m.role === 'user' ? places.get(m.branchOf ?? m.id) : undefined;
    if (group) out.set(m.id, { index: group.indexOf(m) + 1, count: group.length });
  }
  return out;
}

/** Where the shown question `m` stands among the questions of its place, when it has others. */
export function branchPlace(conv: Pick<Conversation, 'messages' | 'variants'>, m: StoredMessage): VariantPlace | undefined {
  if (m.role !== 'user' || !hasBranches(conv)) return undefined;
  const all = branchesOf(conv, m);
  return all.length > 1 ? { index: all.indexOf(m) + 1, count: all.length } : undefined;
}

/** The messages not shown, each as another variant of a reply shown (`variant`) or a turn of another branch (`branch`). */
export function hiddenMessages(conv: Pick<Conversation, 'messages' | 'variants'>): Array<{ message: StoredMessage; kind: 'variant' | 'branch' }> {
  if (!conv.variants?.length) return [];
  const shownQuestions = new Set(conv.messages.filter((m) => m.role === 'user').map((m) => m.id));
  return conv.variants.map((message) => ({ message, kind: message.role === 'assistant' && message.variantOf !== undefined && shownQuestions.has(message.variantOf) ? 'variant' : 'branch' }));
}

/** The questions of the place of the shown question `question`, oldest first (itself alone when it has no branches). */
export function branchesOf(conv: Pick<Conversation, 'messages' | 'variants'>, question: StoredMessage): StoredMessage[] {
  return placesOf([...conv.messages, ...(conv.variants ?? [])]).get(question.branchOf ?? question.id) ?? [question];
}

/**
 * Edit of the shown question at `at` as a branch: it and everything after it stay, not shown, as
 * the branch they are; the edited question takes its place (a new question of the same place) and
 * the next reply follows it. The new question, or undefined when `at` is not a question.
 */
export function startBranch(conv: Conversation, at: number, text: string, now: Date, extra: { files?: readonly string[]; sent?: readonly SentItem[] } = {}): StoredMessage | undefined {
  const question = conv.messages[at];
  if (question?.role !== 'user') return undefined;
  const root = question.branchOf !== undefined && conv.messages.concat(conv.variants ?? []).some((m) => m.id === question.branchOf) ? question.branchOf : question.id;
  remember(conv); // (the choices of the branch left behind are kept)
  const tail = conv.messages.splice(at);
  conv.variants = [...(conv.variants ?? []), ...tail];
  dropStaleSummary(conv);
  return appendMessage(conv, 'user', text, now, { ...extra, branchOf: root });
}

/** Shows another question of the place of the shown question `question` (`step` places on, or the one with id `to`), with its branch. */
export function showBranch(conv: Conversation, question: StoredMessage, target: { step: number } | { to: string }): StoredMessage | undefined {
  if (!conv.messages.includes(question)) return undefined;
  const all = branchesOf(conv, question);
  const next = 'to' in target ? all.find((q) => q.id === target.to) : all[all.indexOf(question) + target.step];
  if (!next || next === question) return undefined;
  rearrange(conv, new Map([[question.branchOf ?? question.id, next.id]]));
  return conv.messages.includes(next) ? next : undefined;
}

/**
 * Shows the message `m` not shown now (a word searched is only there): each place above it shows
 * the branch it is in, and its question the reply it is. False when it cannot be reached.
 */
export function reveal(conv: Conversation, m: StoredMessage): boolean {
  if (conv.messages.includes(m)) return true;
  const all = [...conv.messages, ...(conv.variants ?? [])];
  const byId = new Map(all.map((x) => [x.id, x]));
  const branches = lineBranches(conv);
  let x: StoredMessage | undefined = m;
  if (m.role === 'assistant' && m.variantOf !== undefined && byId.has(m.variantOf)) {
    const memo = remembered.get(conv) ?? { replies: new Map<string, string>(), branches: new Map<string, string>() };
    memo.replies.set(m.variantOf, m.id);
    remembered.set(conv, memo);
    x = byId.get(m.variantOf);
  }
  let self = true;
  for (let depth = 0; x && depth < 10_000; depth++) {
    const root: StoredMessage | undefined = x.role === 'user' && x.branchOf !== undefined ? byId.get(x.branchOf) : undefined;
    if (root) {
      // A question of a place: the place shows it, and the place's first question is reached in its branch.
      branches.set(root.id, x.id);
      x = root;
      self = false;
    }
    // The places above it in its branch show their first question (this branch goes through them).
    const at: StoredMessage = x;
    for (const y of all) if (y.role === 'user' && y.branchOf === undefined && y.branch === at.branch && (byAge(y, at) < 0 || (self && y === at))) branches.set(y.id, y.id);
    self = false;
    x = at.branch !== undefined ? byId.get(at.branch) : undefined;
  }
  rearrange(conv, branches);
  return conv.messages.includes(m);
}
