// Adding text to the message box without losing what the user typed.

/** The draft with `text` added after a blank line (or `text` alone when the draft is empty). */
export function appendToDraft(current: string, text: string): string {
  if (!current.trim()) return text;
  return `${current.replace(/\s+$/, '')}\n\n${text}`;
}
