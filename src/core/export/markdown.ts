// A conversation as a Markdown document.
import type { Conversation } from '../chat/conversation';
import { replyMetaText } from '../account/cost';
import { thinkingSection } from '../../wording';
import { sentLineText, sentSummaryText } from '../../wording/sentWith';
import * as l10n from '@vscode/l10n';

export function conversationToMarkdown(conv: Conversation, exportedAt: Date = new Date()): string {
  const out: string[] = [];
  out.push(`# ${conv.title.replace(/\n/g, ' ')}`);
  out.push(l10n.t('_Exported {0} · {1} messages_', exportedAt.toISOString(), conv.messages.length));
  conv.messages.forEach((m, i) => {
    if (m.role === 'user') {
      if (i > 0) out.push('---');
      out.push('## You');
      out.push(m.content);
      // "Sent with this message": what went beside the text, as a quoted list.
      if (m.sent?.length) out.push([`> ${sentSummaryText(m.sent)}`, ...m.sent.map((x) => `> - ${sentLineText(x).replace(/\n/g, ' ')}`)].join('\n'));
      return;
    }
    out.push('## Assistant');
    if (m.meta) out.push(`_${replyMetaText(m.meta)}_`);
    // The thinking of a reasoning model, as a quoted section before the reply.
    if (m.meta?.reasoning) out.push(thinkingSection(m.meta.reasoning));
    if (m.content) out.push(m.content);
    if (m.status === 'stopped') out.push('_(Stopped)_');
    if (m.status === 'error' && m.error) out.push(`> Error: ${m.error.message.replace(/\n/g, ' ')}`);
  });
  return out.join('\n\n') + '\n';
}
