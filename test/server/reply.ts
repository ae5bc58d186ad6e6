// Deterministic reply generator: a pure function of the last user message.
// Produces demo-worthy markdown (heading, paragraph echoing the prompt, list, table,
// fenced code) with a few multi-byte characters (é, →, ✓, an emoji outside the BMP) so
// decoders are exercised. `len:N` in the last user message asks for ~N characters; `file:PATH`
// makes the example code block name that file (for Apply to File; several make one block each).

export const DEFAULT_REPLY_CHARS = 1200;
export const MAX_REPLY_CHARS = 1_000_000;

export interface PromptMessage {
  role: string;
  content: string;
}

/** FNV-1a, 32 bit. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The prompt the reply answers: the last user message, else the last message. */
export function lastUserContent(messages: readonly PromptMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return messages[i].content;
  return messages.length ? messages[messages.length - 1].content : '';
}

/** `len:N` in the prompt, clamped to [1, MAX_REPLY_CHARS]; undefined when absent. */
export function requestedLength(prompt: string): number | undefined {
  const m = /(?:^|[^\w])len:(\d{1,9})(?!\d)/.exec(prompt);
  if (!m) return undefined;
  return Math.min(MAX_REPLY_CHARS, Math.max(1, Number(m[1])));
}

/** Token estimate: ~4 characters per token, at least 1. */
export function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

/** Splits text into pieces of at most `size` UTF-16 units, never inside a surrogate pair. */
export function splitChunks(text: string, size: number): string[] {
  const n = Math.max(1, Math.floor(size));
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(text.length, i + n);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) {
      // Keep the pair together: shorten the chunk, or (size 1) make it 2 units long.
      end = end - 1 > i ? end - 1 : end + 1;
    }
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

interface CodeBlockInfo {
  count: number;
  language: string;
  lines: number;
}

function codeBlocks(prompt: string): CodeBlockInfo | undefined {
  const re = /```([^\n`]*)\n([\s\S]*?)```/g;
  let first: { language: string; lines: number } | undefined;
  let count = 0;
  for (const m of prompt.matchAll(re)) {
    count++;
    if (!first) {
      const body = m[2].replace(/\n$/, '');
      first = { language: m[1].trim().split(/\s+/)[0] || 'unlabelled', lines: body === '' ? 0 : body.split('\n').length };
    }
  }
  return first ? { count, ...first } : undefined;
}

/** A short single-line quote of the prompt (no code blocks, no len:N or lines:N), at most 80 code points. */
export function excerptOf(prompt: string): string {
  const text = prompt
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/(?:^|\s)(?:len|lines):\d+/g, ' ')
    .replace(/[`*_#>|[\]]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const points = Array.from(text);
  return points.length > 80 ? points.slice(0, 79).join('').trimEnd() + '…' : text;
}

const TITLES = ['Here is a structured answer', 'A quick walkthrough', 'Notes on your question', 'Let’s break it down', 'Overview and next steps'];
const TOPICS = ['streaming', 'caching', 'error handling', 'retries', 'testing', 'logging', 'cancellation', 'rendering', 'billing', 'configuration'];
const VERBS = ['keeps', 'makes', 'leaves'];
const QUALITIES = ['predictable', 'fast', 'observable', 'easy to test', 'robust under load', 'friendly to the café Wi-Fi'];
const STATUS = ['✓ done', '→ next', '… in progress', '✗ blocked', '✓ verified'];
const EMOJI = ['🚀', '✨', '🧪', '📦', '🔧'];
const LANGS = ['typescript', 'python', 'bash', 'json'] as const;

/** Mixes seed and k (murmur3 finaliser) to index into arr. */
function pick<T>(arr: readonly T[], seed: number, k: number): T {
  let h = (seed ^ Math.imul(k + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return arr[h % arr.length];
}

/** The j-th of distinct items from arr (stride 3 over 10 topics never repeats within 10). */
function nth<T>(arr: readonly T[], seed: number, k: number, j: number): T {
  const base = arr.indexOf(pick(arr, seed, k));
  return arr[(base + j * 3) % arr.length];
}

function prose(seed: number, k: number): string {
  const a = pick(TOPICS, seed, k);
  const b = pick(TOPICS, seed, k + 7);
  return (
    `Thinking about ${a} first ${pick(VERBS, seed, k)} the rest ${pick(QUALITIES, seed, k + 3)}. ` +
    `Once that is settled, ${b} follows naturally → measure, adjust, repeat. ` +
    `A small café-sized change today saves a large refactor later ${pick(EMOJI, seed, k)}.`
  );
}

function list(seed: number, k: number): string {
  const items: string[] = [];
  for (let j = 0; j < 4; j++) {
    const t = nth(TOPICS, seed, k * 5, j);
    items.push(`- **${t[0].toUpperCase()}${t.slice(1)}**: ${pick(VERBS, seed, k + j)} the code ${pick(QUALITIES, seed, k * 3 + j)}`);
  }
  return items.join('\n');
}

function table(seed: number, k: number): string {
  const rows = ['| Step | Area | Status |', '|---:|---|---|'];
  for (let j = 1; j <= 4; j++) rows.push(`| ${j} | ${nth(TOPICS, seed, k * 4, j)} | ${pick(STATUS, seed, k + j)} |`);
  return rows.join('\n');
}

/** `file:PATH` in the prompt: the file the example code block names (```typescript PATH). */
export function requestedFile(prompt: string): string | undefined {
  return requestedFiles(prompt)[0];
}

/** Every `file:PATH` in the prompt (at most 20): one example code block names each, in order. */
export function requestedFiles(prompt: string): string[] {
  return [...prompt.matchAll(/(?:^|\s)file:(\S{1,300})/g)].slice(0, 20).map((m) => m[1]);
}

/** Most lines `lines:N` asks of the example block. */
export const MAX_EXAMPLE_LINES = 5000;

/** `lines:N` in the prompt: the example code block's lines, clamped to [7, MAX_EXAMPLE_LINES]; undefined when absent. */
export function requestedLines(prompt: string): number | undefined {
  const m = /(?:^|[^\w])lines:(\d{1,9})(?!\d)/.exec(prompt);
  return m ? Math.min(MAX_EXAMPLE_LINES, Math.max(7, Number(m[1]))) : undefined;
}

/** The example: one TypeScript block, or one per file the prompt names. */
function example(seed: number, prompt: string): string {
  const files = requestedFiles(prompt);
  const lines = requestedLines(prompt);
  if (files.length <= 1) return code(seed, 0, 'typescript', files[0], lines);
  return files.map((file, k) => code(seed, k, 'typescript', file, lines)).join('\n\n');
}

function code(seed: number, k: number, lang: (typeof LANGS)[number], file?: string, lines = 7): string {
  const topic = pick(TOPICS, seed, k).replace(/\s+/g, '_');
  const n = (seed % 90) + 10 + k;
  switch (lang) {
    case 'typescript':
      return [
        file ? `\`\`\`typescript ${file}` : '```typescript',
        `export async function ${topic.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}Step${k}(limit = ${n}): Promise<string[]> {`,
        '  const out: string[] = [];',
        '  for (let i = 0; i < limit; i++) {',
        "    out.push(`item ${i} → ok`);",
        // `lines:N`: a longer body, a step a line.
        ...Array.from({ length: lines - 7 }, (_, j) => `    out.push(\`step ${j + 1} of ${topic} → \${i}\`);`),
        '  }',
        '  return out;',
        '}',
        '```',
      ].join('\n');
    case 'python':
      return ['```python', `def ${topic}_step_${k}(limit: int = ${n}) -> list[str]:`, '    """Café-grade helper."""', '    return [f"item {i} → ok" for i in range(limit)]', '```'].join('\n');
    case 'bash':
      return ['```bash', `for i in $(seq 1 ${n}); do`, `  echo "${topic} step $i → ok"`, 'done', '```'].join('\n');
    case 'json':
      return ['```json', '{', `  "topic": "${topic}",`, `  "limit": ${n},`, '  "note": "naïve → robust"', '}', '```'].join('\n');
  }
}

function extraSection(seed: number, k: number): string {
  const heading = `## Part ${k}: ${pick(TOPICS, seed, k * 11)}`;
  switch (k % 4) {
    case 0:
      return `${heading}\n\n${prose(seed, k)} ${prose(seed, k + 1)}`;
    case 1:
      return `${heading}\n\n${list(seed, k)}`;
    case 2:
      return `${heading}\n\n${table(seed, k)}`;
    default:
      return `${heading}\n\n${code(seed, k, LANGS[(Math.floor(k / 4) + seed) % LANGS.length])}`;
  }
}

function intro(prompt: string): string {
  const excerpt = excerptOf(prompt);
  const parts: string[] = [];
  parts.push(excerpt ? `You wrote: “${excerpt}”.` : 'You sent a message without prose.');
  const blocks = codeBlocks(prompt);
  if (blocks) {
    const more = blocks.count > 1 ? ` (plus ${blocks.count - 1} more block${blocks.count > 2 ? 's' : ''})` : '';
    parts.push(
      `It contains a fenced **${blocks.language}** code block of ${blocks.lines} line${blocks.lines === 1 ? '' : 's'}${more}; ` +
        `I read it top to bottom and the notes below refer to it.`,
    );
  }
  parts.push('Here is how I would approach it, step by step → with a short example at the end.');
  return parts.join(' ');
}

/** The full reply text for a conversation. Pure and deterministic. */
export function generateReply(messages: readonly PromptMessage[]): string {
  const prompt = lastUserContent(messages);
  const seed = hash(prompt);
  // `lines:N` without `len:` makes room for the longer example block.
  const target = requestedLength(prompt) ?? DEFAULT_REPLY_CHARS + (requestedLines(prompt) ?? 0) * 60;

  const closing = 'That’s the gist ✓ — ask a follow-up and I’ll go deeper.';
  const sections = [
    `# ${pick(TITLES, seed, 0)} ${pick(EMOJI, seed, 1)}`,
    intro(prompt),
    `## Key points\n\n${list(seed, 0)}`,
    `## At a glance\n\n${table(seed, 0)}`,
    `## Example\n\n${example(seed, prompt)}`,
  ];
  const bodyTarget = Math.max(1, target - closing.length - 2);
  let length = sections.reduce((s, x) => s + x.length + 2, 0);
  // Longer replies: repeat varied sections (prose, list, table, code) until long enough.
  for (let k = 1; length < bodyTarget + 200; k++) {
    const s = extraSection(seed, k);
    sections.push(s);
    length += s.length + 2;
  }
  if (target < 2 * closing.length) return fit(sections.join('\n\n'), target);
  return fitSections(sections, bodyTarget) + '\n\n' + closing;
}

/** Whole sections up to ~target characters; a section is cut at a line end only when needed. */
function fitSections(sections: readonly string[], target: number): string {
  let text = '';
  for (const s of sections) {
    const next = text ? text + '\n\n' + s : s;
    if (next.length > target) {
      // Stop at the section boundary when close enough, else cut inside this section.
      return text.length >= target * 0.85 ? text : fit(next, target);
    }
    text = next;
  }
  return text;
}

/** Cuts `text` to about `target` characters at a line end, closing an open code fence. */
function fit(text: string, target: number): string {
  if (text.length <= target) return text;
  let cut = text.lastIndexOf('\n', target);
  if (cut < target * 0.6) {
    cut = target;
    if (isHighSurrogate(text.charCodeAt(cut - 1))) cut--;
  }
  let out = text.slice(0, cut).trimEnd();
  const fences = out.split('\n').filter((l) => l.startsWith('```')).length;
  if (fences % 2 === 1) out += '\n```';
  return out;
}
