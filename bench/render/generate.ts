import { rng } from '../../test/unit/render/fixtures';

// Deterministic assistant-like replies of a given size: headings, prose with inline markup and
// links, bullet/numbered/task lists, tables, fenced code (TypeScript, Python, Bash), quotes.

const WORDS = (
  'the request stream handler returns a value when each chunk arrives from the server and ' +
  'renders only what changed since the last frame so that long replies stay smooth while the ' +
  'user keeps reading older parts of the conversation without any jumps in scrolling position ' +
  'cache buffer parser token block table list item code editor extension panel message credit ' +
  'model balance retry timeout configuration setting workspace terminal function variable'
).split(' ');

export function generateReply(targetBytes: number, seed = 1): string {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const sentence = () => {
    const words = Array.from({ length: int(8, 18) }, () => pick(WORDS));
    const i = int(0, words.length - 1);
    const j = int(0, words.length - 1);
    if (r() < 0.3) words[i] = `**${words[i]}**`;
    if (r() < 0.3) words[j] = `\`${words[j]}()\``;
    if (r() < 0.1) words[i] = `[${words[i]}](https://example.com/docs/${words[j]})`;
    const s = words.join(' ');
    return s[0].toUpperCase() + s.slice(1) + '.';
  };
  const paragraph = () => Array.from({ length: int(2, 5) }, sentence).join(' ');
  const list = (ordered: boolean) =>
    Array.from({ length: int(3, 8) }, (_, i) => `${ordered ? `${i + 1}.` : '-'} ${sentence()}`).join('\n');
  const tasks = () => Array.from({ length: int(3, 5) }, () => `- [${r() < 0.5 ? 'x' : ' '}] ${sentence()}`).join('\n');
  const table = () => {
    const cols = int(3, 5);
    const head = `| ${Array.from({ length: cols }, () => pick(WORDS)).join(' | ')} |`;
    const sep = `|${Array.from({ length: cols }, (_, i) => (i === cols - 1 ? '---:' : ':---')).join('|')}|`;
    const rows = Array.from({ length: int(4, 10) }, () => `| ${Array.from({ length: cols }, (_, i) => (i === cols - 1 ? String(int(1, 9999)) : `${pick(WORDS)} ${pick(WORDS)}`)).join(' | ')} |`);
    return [head, sep, ...rows].join('\n');
  };
  const code = () => {
    const lang = pick(['ts', 'python', 'bash'] as const);
    const lines: string[] = [];
    const n = int(8, 30);
    for (let i = 0; i < n; i++) {
      const a = pick(WORDS);
      const b = pick(WORDS);
      if (lang === 'ts') lines.push(pick([`const ${a}${i} = await ${b}(${i}, "${a}");`, `if (${a}.length > ${i}) { return ${b}; }`, `// ${sentence()}`, `export function ${a}${i}(x: number): string { return String(x * ${i}); }`]));
      else if (lang === 'python') lines.push(pick([`${a}_${i} = ${b}(${i}, "${a}")`, `if len(${a}) > ${i}:\n    return ${b}`, `# ${sentence()}`, `def ${a}_${i}(x: int) -> str:\n    return str(x * ${i})`]));
      else lines.push(pick([`npm run ${a} -- --${b}=${i}`, `export ${a.toUpperCase()}_${i}="${b}"`, `# ${sentence()}`, `if [ -f "${a}.txt" ]; then echo ${b}; fi`]));
    }
    return '```' + lang + '\n' + lines.join('\n') + '\n```';
  };
  const quote = () => `> ${sentence()}\n> ${sentence()}`;

  const parts: string[] = [];
  let size = 0;
  let section = 0;
  while (size < targetBytes) {
    const block =
      size === 0 || r() < 0.08
        ? `${'#'.repeat(int(2, 3))} ${section++ + 1}. ${sentence().slice(0, 40)}`
        : pick([paragraph, paragraph, paragraph, () => list(false), () => list(true), tasks, table, code, code, quote])();
    parts.push(block);
    size += block.length + 2;
  }
  return parts.join('\n\n').slice(0, targetBytes);
}
