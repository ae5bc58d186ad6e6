// "Go to Question": the user's own messages of a conversation, newest first, as a list to pick
// from (first line and time).

export interface Question {
  id: string;
  /** The first line with text, cut to `max` characters. */
  firstLine: string;
  createdAt: string;
}

/** The user's messages, newest first, each by its first line with text. */
export function questionsOf(messages: ReadonlyArray<{ id: string; role: string; content: string; createdAt: string }>, max = 120): Question[] {
  const out: Question[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'user') continue;
    const line = m.content.split('\n').find((l) => l.trim())?.trim() ?? '';
    out.push({ id: m.id, firstLine: line.length > max ? `${line.slice(0, max - 1)}…` : line, createdAt: m.createdAt });
  }
  return out;
}
