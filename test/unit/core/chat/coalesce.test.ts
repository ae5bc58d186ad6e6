import { strict as assert } from 'node:assert';
import { growingInterval, TextCoalescer, type TextCoalescerOptions } from '../../../../src/core/chat/coalesce';

/** A clock of our own: timers run only when the test moves time on. */
class FakeTime {
  now = 0;
  private next = 1;
  private timers = new Map<number, { at: number; fn: () => void }>();

  set = (fn: () => void, ms: number): number => {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  };

  clear = (id: unknown): void => {
    this.timers.delete(id as number);
  };

  get pending(): number {
    return this.timers.size;
  }

  /** Moves time on by `ms`, running every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      let due: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= until && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = until;
  }
}

interface Rig {
  c: TextCoalescer;
  emits: Array<{ text: string; at: number }>;
  time: FakeTime;
  cuts: number;
  /** Everything emitted so far. */
  out(): string;
}

function rig(opts: Partial<TextCoalescerOptions> = {}): Rig {
  const time = new FakeTime();
  const emits: Array<{ text: string; at: number }> = [];
  const r: Rig = {
    c: undefined as unknown as TextCoalescer,
    emits,
    time,
    cuts: 0,
    out: () => emits.map((e) => e.text).join(''),
  };
  r.c = new TextCoalescer({
    emit: (text) => emits.push({ text, at: time.now }),
    setTimer: time.set,
    clearTimer: time.clear,
    onCut: () => r.cuts++,
    ...opts,
  });
  return r;
}

/** Pushes `text` in `size`-character parts, `gapMs` apart. */
function stream(r: Rig, text: string, size: number, gapMs: number): void {
  for (let i = 0; i < text.length; i += size) {
    r.c.push(text.slice(i, i + size));
    r.time.advance(gapMs);
  }
}

/** The fence state of a markdown text's lines: true where a line lies inside (or opens/closes) a block. */
function insideFence(text: string, at: number): boolean {
  // Whether position `at` falls after an opening fence line and before its closing line.
  let fence: string | undefined;
  let pos = 0;
  for (const line of text.split('\n')) {
    const end = pos + line.length + 1;
    const bare = line.replace(/\r$/, '');
    const m = /^[ \t]*(`{3,}|~{3,})(.*)$/.exec(bare);
    if (fence === undefined) {
      if (m && !(m[1][0] === '`' && m[2].includes('`'))) {
        if (at > pos && at < end) return true; // inside the opening line itself
        fence = m[1];
      }
    } else {
      const closing = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(bare);
      if (at >= pos && at < end) return true;
      if (closing && closing[1][0] === fence[0] && closing[1].length >= fence.length) fence = undefined;
    }
    if (at < end && fence === undefined) return false;
    pos = end;
  }
  return fence !== undefined;
}

/** Offsets in the input where one emit ended and the next began. */
function boundaries(r: Rig): number[] {
  const out: number[] = [];
  let pos = 0;
  for (const e of r.emits.slice(0, -1)) {
    pos += e.text.length;
    out.push(pos);
  }
  return out;
}

describe('TextCoalescer', () => {
  it('emits the first part at once, then at most once per interval, and the rest on end()', () => {
    const r = rig({ intervalMs: 100 });
    r.c.push('Hello');
    assert.deepEqual(r.emits.map((e) => e.text), ['Hello']);
    r.c.push(', ');
    r.c.push('world');
    assert.equal(r.emits.length, 1, 'nothing more before the interval is over');
    r.time.advance(99);
    assert.equal(r.emits.length, 1);
    r.time.advance(1);
    assert.deepEqual(r.emits.map((e) => e.text), ['Hello', ', world']);
    r.c.push('!');
    r.c.end();
    assert.deepEqual(r.emits.map((e) => e.text), ['Hello', ', world', '!'], 'end() flushes at once');
    assert.equal(r.time.pending, 0, 'no timer left after end()');
    r.c.push('more');
    r.c.end();
    assert.equal(r.out(), 'Hello, world!', 'nothing after end()');
    assert.equal(r.c.cut, false);
  });

  it('after a quiet interval the next part goes at once', () => {
    const r = rig({ intervalMs: 100 });
    r.c.push('a');
    r.time.advance(100); // timer fires with nothing to send
    r.time.advance(500);
    r.c.push('b');
    assert.deepEqual(r.emits.map((e) => [e.text, e.at]), [['a', 0], ['b', 600]]);
  });

  it('5,000 parts streamed over 5 s make at most one emit per 100 ms, and lose nothing', () => {
    const r = rig({ intervalMs: 100 });
    const parts = Array.from({ length: 5000 }, (_, i) => `word${i} ${i % 20 === 19 ? '\n' : ''}`);
    for (const p of parts) {
      r.c.push(p);
      r.time.advance(1);
    }
    r.c.end();
    assert.equal(r.out(), parts.join(''));
    assert.ok(r.emits.length <= 5000 / 100 + 2, `${r.emits.length} emits`);
    assert.ok(r.emits.length >= 40, `text keeps flowing: ${r.emits.length} emits`);
    for (let i = 1; i < r.emits.length - 1; i++) assert.ok(r.emits[i].at - r.emits[i - 1].at >= 100, `emit ${i} at ${r.emits[i].at}`);
    assert.equal(r.c.emitCount, r.emits.length);
    assert.equal(r.c.forwardedChars, parts.join('').length);
  });

  it('a whole reply arriving within one interval goes out in two emits', () => {
    const r = rig({ intervalMs: 100 });
    const text = 'x'.repeat(200_000);
    for (let i = 0; i < text.length; i += 40) r.c.push(text.slice(i, i + 40));
    r.c.end();
    assert.equal(r.emits.length, 2);
    assert.equal(r.out(), text);
  });

  it('holds an open ``` block until its closing fence, then emits it whole', () => {
    const r = rig({ intervalMs: 100 });
    r.c.push('Intro line\n');
    r.c.push('```ts\n');
    r.c.push('const a = 1;\n');
    r.time.advance(100);
    r.c.push('const b = 2;\n');
    r.time.advance(300);
    assert.equal(r.out(), 'Intro line\n', 'nothing of the open block is shown');
    r.c.push('```\n');
    r.time.advance(100);
    assert.equal(r.out(), 'Intro line\n```ts\nconst a = 1;\nconst b = 2;\n```\n');
    r.c.push('After.');
    r.c.end();
    assert.equal(r.out(), 'Intro line\n```ts\nconst a = 1;\nconst b = 2;\n```\nAfter.');
    assert.equal(r.c.openFence, undefined);
  });

  it('holds a fence line that is still arriving (``, then `)', () => {
    const r = rig({ intervalMs: 100 });
    r.c.push('Text\n``');
    assert.equal(r.out(), 'Text\n', 'a line that may open a fence is held');
    r.time.advance(100);
    r.c.push('`py\nprint(1)\n');
    r.time.advance(100);
    assert.equal(r.out(), 'Text\n');
    r.c.push('``');
    r.time.advance(100);
    assert.equal(r.out(), 'Text\n', 'a closing fence still arriving keeps the block held');
    r.c.push('`\nDone');
    r.time.advance(100);
    assert.equal(r.out(), 'Text\n```py\nprint(1)\n```\nDone');
  });

  it('sends inline code and short backtick runs as they come', () => {
    const r = rig({ intervalMs: 100 });
    r.c.push('Use `x` and ``y``');
    assert.equal(r.out(), 'Use `x` and ``y``');
    r.time.advance(100);
    r.c.push('\n``z`` at a line start');
    r.time.advance(100);
    assert.equal(r.out(), 'Use `x` and ``y``\n``z`` at a line start');
    r.c.push('\n```a`b``` is not a fence\nmore');
    r.time.advance(100);
    assert.equal(r.out(), 'Use `x` and ``y``\n``z`` at a line start\n```a`b``` is not a fence\nmore');
  });

  it('a ``` block is not closed by a fence line with an info string, ~~~, or a shorter run', () => {
    const r = rig({ intervalMs: 100 });
    r.c.push('````md\n');
    r.c.push('```ts\nnested-looking\n```\n');
    r.c.push('~~~~\n');
    r.time.advance(500);
    assert.equal(r.out(), '', 'the 4-backtick block is still open');
    r.c.push('`````\n');
    r.time.advance(100);
    assert.equal(r.out(), '````md\n```ts\nnested-looking\n```\n~~~~\n`````\n', 'a longer run closes it');
  });

  it('~~~ blocks, with backticks inside and a longer closing run', () => {
    const r = rig({ intervalMs: 100 });
    r.c.push('~~~ info with `ticks`\n');
    r.c.push('```\ninside\n');
    r.time.advance(300);
    assert.equal(r.out(), '');
    r.c.push('~~~~~ \n');
    r.time.advance(100);
    assert.equal(r.out(), '~~~ info with `ticks`\n```\ninside\n~~~~~ \n');
  });

  it('CRLF: fences on \\r\\n lines, and a \\r is never sent without its \\n', () => {
    const r = rig({ intervalMs: 100 });
    r.c.push('Line one\r');
    assert.equal(r.out(), 'Line one', 'the \\r waits for its \\n');
    r.time.advance(100);
    r.c.push('\n```js\r\nlet a;\r\n');
    r.time.advance(100);
    assert.equal(r.out(), 'Line one\r\n');
    r.c.push('```\r');
    r.time.advance(100);
    assert.equal(r.out(), 'Line one\r\n');
    r.c.push('\nok\r\n');
    r.time.advance(100);
    assert.equal(r.out(), 'Line one\r\n```js\r\nlet a;\r\n```\r\nok\r\n');
    for (const e of r.emits) assert.ok(!e.text.startsWith('\n') || e === r.emits[0], 'no emit starts with the \\n of a split CRLF');
  });

  it('never splits a surrogate pair', () => {
    const r = rig({ intervalMs: 100 });
    const s = 'a😀b';
    r.c.push(s.slice(0, 2)); // 'a' + high surrogate
    assert.equal(r.out(), 'a');
    r.time.advance(100);
    r.c.push(s.slice(2));
    r.time.advance(100);
    assert.equal(r.out(), s);
  });

  it('a block that grows past the hold bound is emitted anyway, and the fence state follows', () => {
    const r = rig({ intervalMs: 100, maxHeldChars: 100 });
    r.c.push('```\n');
    for (let i = 0; i < 5; i++) {
      r.c.push(`line ${i} ${'y'.repeat(20)}\n`);
      r.time.advance(100);
    }
    assert.ok(r.out().startsWith('```\nline 0'), `the long block started showing: ${JSON.stringify(r.out())}`);
    assert.equal(r.c.openFence, '```');
    r.c.push('```\nafter\n');
    r.time.advance(100);
    assert.ok(r.out().endsWith('```\nafter\n'));
    assert.equal(r.c.openFence, undefined);
  });

  it('an unclosed block is flushed by end() and reported as open', () => {
    const r = rig({ intervalMs: 100 });
    r.c.push('Start\n~~~~\ncode\n');
    r.time.advance(1000);
    assert.equal(r.out(), 'Start\n');
    r.c.end();
    assert.equal(r.out(), 'Start\n~~~~\ncode\n');
    assert.equal(r.c.openFence, '~~~~');
  });

  it('emits never end inside a fenced block when the blocks are short (generated reply, random parts)', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const blocks: string[] = [];
    for (let i = 0; i < 60; i++) {
      blocks.push(`## Section ${i}\r\n\r\nSome prose with \`code\` and more words ${i}.\n\n`);
      const fence = ['```', '~~~', '````'][i % 3];
      blocks.push(`${fence}${i % 2 ? 'ts' : ''}\nconst v${i} = ${i};\n${i % 3 === 2 ? '```\nnot the end\n' : ''}${fence}\n\n`);
    }
    const text = blocks.join('');
    const r = rig({ intervalMs: 100 });
    let i = 0;
    while (i < text.length) {
      const n = 1 + Math.floor(rand() * 30);
      r.c.push(text.slice(i, i + n));
      i += n;
      r.time.advance(Math.floor(rand() * 40));
    }
    r.c.end();
    assert.equal(r.out(), text);
    const cuts = boundaries(r);
    assert.ok(cuts.length > 20, `${cuts.length} boundaries`);
    for (const at of cuts) assert.equal(insideFence(text, at), false, `an emit ended inside a block at ${at}: ${JSON.stringify(text.slice(at - 30, at + 10))}`);
  });

  it('cuts after maxChars at the end of a whole line, reports it once, and forwards nothing after', () => {
    const r = rig({ intervalMs: 100, maxChars: 1000 });
    const line = (i: number) => `line ${String(i).padStart(3, '0')} ${'z'.repeat(30)}\n`; // 40 chars
    const text = Array.from({ length: 100 }, (_, i) => line(i)).join('');
    stream(r, text, 7, 1);
    r.c.end();
    assert.equal(r.c.cut, true);
    assert.equal(r.cuts, 1);
    assert.equal(r.out(), text.slice(0, 1000), '25 whole lines of 40 characters');
    assert.equal(r.c.forwardedChars, 1000);
    assert.equal(r.time.pending, 0);
  });

  it('the cut falls on the last line end before the limit, and closes nothing by itself', () => {
    const r = rig({ intervalMs: 100, maxChars: 50 });
    r.c.push('Intro\n```ts\nconst a = 1;\n');
    r.c.push('const bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb = 2;\n```\n');
    assert.equal(r.c.cut, true);
    assert.equal(r.out(), 'Intro\n```ts\nconst a = 1;\n');
    assert.equal(r.c.openFence, '```', 'the caller can close the block before its note');
    r.c.push('more');
    r.time.advance(1000);
    r.c.end();
    assert.equal(r.out(), 'Intro\n```ts\nconst a = 1;\n');
  });

  it('text of exactly maxChars is no cut', () => {
    const r = rig({ intervalMs: 100, maxChars: 10 });
    r.c.push('0123456789');
    r.c.end();
    assert.equal(r.c.cut, false);
    assert.equal(r.out(), '0123456789');
  });

  it('a limit inside one long line cuts inside it, never inside a surrogate pair', () => {
    const r = rig({ intervalMs: 100, maxChars: 4 });
    r.c.push('abc😀def');
    assert.equal(r.c.cut, true);
    assert.equal(r.out(), 'abc');
  });

  it('an interval that grows with the text sent: fewer updates for a long reply, nothing lost', () => {
    const r = rig({ intervalMs: growingInterval });
    const text = Array.from({ length: 1500 }, (_, i) => `word ${String(i).padStart(4, '0')} ${'w'.repeat(27)}\n`).join(''); // 60,000 chars
    stream(r, text, 40, 2); // 20 KB/s: 3 s of stream
    r.c.end();
    assert.equal(r.out(), text);
    const gaps = r.emits.slice(1, -1).map((e, i) => [r.emits.slice(0, i + 1).reduce((n, x) => n + x.text.length, 0), e.at - r.emits[i].at]);
    for (const [sent, gap] of gaps) assert.ok(gap >= growingInterval(sent), `${gap} ms after ${sent} characters`);
    assert.ok(gaps.some(([sent, gap]) => sent < 10_000 && gap < 150), 'short: about ten a second');
    assert.ok(gaps.some(([sent, gap]) => sent >= 25_000 && gap >= 1000), 'long: one a second');
    // 100 ms would make about 30 emits of this stream.
    assert.ok(r.emits.length <= 15, `${r.emits.length} emits`);
  });

  it('uses the real timers when none are given', async () => {
    const got: string[] = [];
    const c = new TextCoalescer({ emit: (t) => got.push(t), intervalMs: 10 });
    c.push('a');
    c.push('b');
    assert.deepEqual(got, ['a']);
    await new Promise((ok) => setTimeout(ok, 30));
    assert.deepEqual(got, ['a', 'b']);
    c.end();
  });
});
