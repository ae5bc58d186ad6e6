// Markdown documents exercising block boundaries: every construct whose extent depends on the
// lines after it (setext headings, tables, lists, fences, lazy continuation, references).
export const FIXTURES: Record<string, string> = {
  prose: '# Title\n\nFirst paragraph with *emphasis* and `code`.\nSecond line of it.\n\nAnother paragraph.\n',
  setext: 'Heading one\n===========\n\nHeading two\n---\n\nText\n---\n\nnot a heading\n\n---\n\nafter rule\n',
  lists:
    '- a\n- b\n  - nested\n  - nested 2\n- c\n\n1. one\n2. two\n\n   continued para in item\n3. three\n\n' +
    '7. starts at seven\n8. eight\n\nparagraph\n\n* star\n\n* loose\n\n+ plus\n',
  tasks: '- [ ] todo\n- [x] done\n- [X] also done\n- [] not a task\n\n1. [ ] ordered task\n',
  tables:
    'Intro\n\n| Name | Value |\n|:-----|------:|\n| a | 1 |\n| b | 2 |\n\nText after.\n\n' +
    'para line\n| x | y |\n| - | - |\n| 1 | 2 |\nlazy row\n\n| only | header |\n| --- | --- |\n',
  fences:
    'Before\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\n~~~python\nprint("x")\n```\nstill code\n~~~\n\n' +
    '````md\n```\ninner\n```\n````\n\n    indented code\n\n    more indented\n\nend\n',
  unclosedFence: 'Start\n\n```js\nlet x = 1;\n\nlet y = 2;\n',
  quotes: '> quote line\nlazy continuation\n\n> second quote\n>\n> - list in quote\n\nafter\n',
  references:
    '[ref]: https://example.com/ref "Title"\n[other]: https://example.com/other\n\n' +
    'Uses [ref] and [the other][other].\n\n- item with [ref]\n\nText [ref][].\n',
  mixed:
    '## Steps\n\n1. Install\n2. Run `npm test`\n\n```bash\nnpm ci\nnpm test\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n' +
    '> Note: **bold** and https://example.com/x\n\n***\n\n- [ ] check\n- [x] done\n\nLast line without newline',
  crlf: '# CRLF\r\n\r\nline one\r\nline two\r\n\r\n- a\r\n- b\r\n\r\n```\r\ncode\r\n```\r\n',
  blankStart: '\n\n\nText after blank lines\n\n\n\n# Heading\n\n\n',
  emptyLines: '\n\n\n',
  htmlText: '<div onclick="x()">raw html</div>\n\n<script>alert(1)</script>\n\ntext <b>bold?</b>\n',
  headingsOnly: '# a\n## b\n### c\n#### d\ntext\n# e\n',
};

/** A deterministic pseudo-random generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits `text` into chunks of 1..maxLen characters at random positions. */
export function randomChunks(text: string, random: () => number, maxLen: number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(random() * maxLen);
    chunks.push(text.slice(i, i + n));
    i += n;
  }
  return chunks;
}

const PIECES = Object.values(FIXTURES).flatMap((doc) => doc.replace(/\r/g, '').split(/\n{2,}/));

/** A random document built from pieces of the fixtures, joined by one or two newlines. */
export function randomDocument(random: () => number, pieces = 12): string {
  let doc = '';
  for (let i = 0; i < pieces; i++) {
    doc += PIECES[Math.floor(random() * PIECES.length)];
    doc += random() < 0.7 ? '\n\n' : '\n';
  }
  return doc;
}
