// markdown-it as replies are rendered: src/wording/markdown.ts, shared with the exported web page.
export * from '../../wording/markdown';
