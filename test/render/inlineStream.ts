// Words with inline Markdown streamed into the open paragraph (src/webview/render/inlineAppend.ts):
// after every frame the reply equals a fresh view given the same text at once, on paragraphs made to
// cross the fast path's boundaries (emphasis and code spans split over chunks, delimiters left
// open, escapes, snake_case, no-break spaces, a line that becomes a list or a table, references,
// long words), and on a generated reply; and the open paragraph is not parsed again on every frame.
import type { Page } from 'playwright-core';
import { generateReply } from '../../bench/render/generate';
import type { Recorder } from './harness';

const LONG = 'a'.repeat(700);

/** Paragraphs whose inline Markdown meets the fast path's every rule. */
export const INLINE_CORPUS = [
  'Start with *emphasis that spans several chunks and ends* here, then `a code span with * inside` and a [link](https://example.com/a_b) and snake_case_name and ***strong em*** x **bold *nested* bold** and ~~strike~~ text. ' +
    'Unclosed *emphasis opens here and closes much later in the same paragraph* fine. Autolink https://example.com/path?x=1 then <https://example.com> then &amp; &copy; & done. ' +
    'Tabs\tand  double  spaces and a no-break\u00a0space, an ending no-break\u00a0 and **bold with `code` inside** and `code with **stars**` and _under_ and __strong__ and in_word_under. ' +
    '\\*not emphasis\\* and \\`not code\\` and a lone * star and a lone ` tick that closes ` later. Two spaces end this  \nhard break, then two words. ' +
    `A long word ${LONG} and after it **bold** again. ***a** left over star, then *more* words.`,
  'Words first with two\n1. numbered line with text, **bold** then\n- dash line with **bold** words\nand a lazy line after it.',
  'Header | with | pipes and **bold** words\n|---|---|---|\n| a | b | c |\n\nAfter the table a paragraph with `code` and *em* words.',
  '[r]: https://example.com/r\nThe definition above this line, then [a ref][r] and [r] and [missing] words *em* here.',
  'Setext heading candidate with **bold**\n===\n\nA paragraph once more with `code` and **bold** and more words.',
  '#not heading and **bold** words, then more *em* words and `code` and words.',
  // A line break or a pipe renders the paragraph whole while an emphasis or a code span is open:
  // what follows must not be taken as settled.
  'Words before *an open emphasis\ncontinues on the next line and closes* with words after it.',
  'Words before `an open code span\ncontinues on the next line` with words after it.',
  'Words before **an open strong | with a pipe in it** and words after it.',
];

/** `text` in chunks of `size` characters. */
function chunked(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export async function inlineStreamChecks(page: Page, record: Recorder): Promise<void> {
  const G = 'inline stream';
  const equal = async (name: string, chunks: string[]) => {
    try {
      const r = await page.evaluate((c) => window.renderTest.streamEqualsFresh(c), chunks);
      record(G, name, r.differs === 0 && r.frames === chunks.length, `${r.differs} of ${r.frames} frames differ; first: ${r.first}`);
    } catch (err) {
      record(G, name, false, String(err).slice(0, 300));
    }
  };
  const corpus = INLINE_CORPUS.join('\n\n');
  await equal('paragraphs crossing the fast path\'s rules, in chunks of 5: every frame equals a fresh render', chunked(corpus, 5));
  await equal('the same in chunks of 13: every frame equals a fresh render', chunked(corpus, 13));
  await equal('the same split after every space (words as a model sends them): every frame equals a fresh render', corpus.split(/(?<= )/));
  await equal('a generated reply (prose, lists, tables, code, quotes) in chunks of 40: every frame equals a fresh render', chunked(generateReply(8 * 1024, 21), 40));
  // Found by review: a definition's title taking the lines after it, a paragraph followed by a
  // definition (which shows nothing), colons and dashes under a row of pipes (a table once
  // complete), no-break spaces at the end (markdown-it trims only spaces, tabs and line breaks).
  const cases: Array<[string, string[]]> = [
    ['a definition whose title goes on in the next line', ['[t1]: https://example.com\n(title with **b** continues', ' here', ' words)']],
    ["a definition whose 'title' goes on in plain words", ["[t2]: https://example.com\n'title with plain continues", ' here', " words'"]],
    ['a second definition of a label, its title growing', ['[t3]: https://x.com\n\n[t3]: https://y.com \'title a', ' b', " c'"]],
    ['a paragraph, then a definition growing after it', ['See https://e.com\n\n[the docs]: https://e.com', '/x', ' more']],
    ['colons under a row of pipes, then a dash', ['x | y\n: : :', ' -']],
    ['plain words ending in a no-break space', ['Words **b** here one two', ' three\u00a0', ' four\u3000']],
  ];
  for (const [name, chunks] of cases) await equal(`${name}: every frame equals a fresh render`, chunks);

  // A paragraph of 100 parts, each with inline Markdown: parsed again whole on every frame, the
  // renderer would parse the sum of its lengths so far (about 100 x 1,800 characters).
  const parts = Array.from({ length: 100 }, (_, i) => `word${i} with **bold** and \`code\` `);
  try {
    const parsed = await page.evaluate((c) => window.renderTest.parsedWhileStreaming(c), parts);
    let whole = 0;
    let length = 0;
    for (const part of parts) whole += length += part.length;
    record(G, 'a paragraph of 100 parts with inline Markdown is not parsed again whole on each frame', parsed < whole / 10, `parsed ${parsed} characters; whole on each frame: ${whole}`);
  } catch (err) {
    record(G, 'a paragraph of 100 parts with inline Markdown is not parsed again whole on each frame', false, String(err).slice(0, 300));
  }
}
