// Feeds the context meter and the boundary line of the chat: what the next request would hold
// (the draft in the box, its attachments, the instructions and the earlier turns that fit)
// against the model's budget. VS Code-free; posts only when the figures change.
import { type Attachment, type ChatSession, type RequestBudget } from '../../../core';
import type { HostMessage } from '../../../protocol';
import { contextMeterMessageOf, toContextMeter } from './presenter';
import { attachedFiles, messageWith } from './sendWithAttachments';

export interface ContextMeterDeps {
  session: ChatSession;
  /** The chips of the next message. */
  attachments: () => readonly Attachment[];
  /** Where the budget of the selected model comes from. */
  source: () => RequestBudget['source'];
  post: (message: HostMessage) => void;
}

export class ContextMeterFeed {
  private draft = '';
  private last: string | undefined;

  constructor(private readonly deps: ContextMeterDeps) {}

  /** The text in the box changed (the webview posts its draft). */
  setDraft(text: string, post = true): void {
    this.draft = text;
    if (post) this.update();
  }

  /** The next message as it would be sent (the draft with its attachments), and how much of it is attachments. */
  next(): { text: string; attachmentChars: number } {
    const attached = this.deps.attachments();
    const text = this.draft.replace(/\s+$/, '');
    const full = messageWith(text, attached);
    return { text: full, attachmentChars: full.length - text.length };
  }

  /** The figures for the current draft, attachments, settings and conversation. */
  message(): Extract<HostMessage, { type: 'contextMeter' }> {
    const { text, attachmentChars } = this.next();
    // The rules the attachments' files (and the active editor's) bring count too.
    const selection = this.deps.session.previewContext(text, attachmentChars, attachedFiles(this.deps.attachments()));
    return contextMeterMessageOf(toContextMeter(selection, this.deps.source()));
  }

  /** Posts the figures when they changed since the last post (`force`: a surface that starts anew). */
  update(force = false): void {
    const message = this.message();
    const json = JSON.stringify(message);
    if (!force && json === this.last) return;
    this.last = json;
    this.deps.post(message);
  }
}
