// Text put into Markdown that the Chat view or a tooltip renders: shown as written, never read as
// Markdown.

/** Escapes text for Markdown (a tooltip, a note in the Chat view). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => '\\' + c);
}
