// Highlighting of fenced code: src/wording/highlight.ts, shared with the exported web page.
export * from '../../wording/highlight';
