// How a reply's fenced code block names the file it is for (```ts src/a.ts, path=, title=, file=),
// and the blocks of a reply that name one: read the same way by the chat panel (Apply to File on a
// block, and whether a reply offers Apply All) and by the host (the files Apply All changes).

/**
 * The file a code block is for, from its info string: ```ts src/a.ts, ```ts path=src/a.ts,
 * ```ts title="src/a.ts" or file=…. Empty when none is named (a relative path, no `..`).
 */
export function codePathOf(info: string): string {
  const rest = info.trim().split(/\s+/).slice(1).join(' ');
  const named = /(?:^|\s)(?:path|file|title|filename)=(?:"([^"]+)"|'([^']+)'|(\S+))/.exec(rest);
  const candidate = named ? (named[1] ?? named[2] ?? named[3] ?? '') : (rest.split(/\s+/, 1)[0] ?? '');
  const path = candidate.replace(/^\.\//, '');
  if (!path || path.length > 300 || /\s/.test(path) || !/[./]/.test(path) || /^[{(]/.test(path)) return '';
  if (/^([A-Za-z]:|[\\/~])/.test(path) || path.split(/[\\/]/).includes('..')) return '';
  return path;
}

export interface FencedBlock {
  /** The file it names, or '' when it names none. */
  path: string;
  /** The first word of its info string (the language), as written. */
  language: string;
  /** Its code, without the fences, ending with a newline when not empty. */
  code: string;
}

const OPEN = /^([ \t]*)(`{3,}|~{3,})(.*)$/;

/**
 * The fenced code blocks of a reply's Markdown, in order. An opening fence may be indented (a block
 * inside a list item); its indentation is taken off the block's lines. A block left open runs to
 * the end of the text, as in CommonMark.
 */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = OPEN.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    if (fence[0] === '`' && info.includes('`')) continue;
    const close = new RegExp(`^[ \\t]*${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !close.test(lines[j]); j++) {
      const line = lines[j];
      let cut = 0;
      while (cut < indent.length && (line[cut] === ' ' || line[cut] === '\t')) cut++;
      body.push(line.slice(cut));
    }
    blocks.push({ path: codePathOf(info), language: info.trim().split(/\s+/, 1)[0] ?? '', code: body.length ? body.join('\n') + '\n' : '' });
    i = j;
  }
  return blocks;
}

/** The distinct files a reply's code blocks name, in the order first named. */
export function namedFiles(markdown: string): string[] {
  return [...new Set(fencedBlocks(markdown).map((b) => b.path).filter(Boolean))];
}
