// A reply's facts as the chat keeps them with the reply (stored in the conversation's log): its
// model, its charge, its token counts, how it ended, a note on a malformed reply, the reasoning,
// and the stream's data. Core's own shape: the panel has its view of them (src/protocol), which
// the extension maps to at the edge. VS Code-free.
import type { ReplyFacts, SentRule } from './conversationFormat';

/** Longest reasoning kept with a reply (a longer one is cut). */
export const MAX_KEPT_REASONING = 200_000;
/** Longest JSON of the data and annotations kept with a reply. */
export const MAX_KEPT_EXTRAS = 80_000;

/** Most rules listed with one reply. */
export const MAX_SENT_RULES = 200;

// The stored shapes (their schemas: ./conversationFormat).
export type { ReplyFacts, SentRule };
