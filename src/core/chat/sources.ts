// The sources a reply cites (the stream's `h` parts), as the numbered list that ends the reply:
// titles as plain text (every Markdown character escaped), addresses only http(s), each link
// going through the panel's link handling like any other.
import * as l10n from '@vscode/l10n';
import type { ReplySource } from '../../client/reply';

/** A title as Markdown text: nothing in it can make a link, an image, emphasis or HTML. */
export function markdownText(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&"']/g, (c) => `\\${c}`);
}

/** The sources as a Markdown section to append to the reply ('' when there are none). */
export function sourcesMarkdown(sources: readonly ReplySource[]): string {
  if (sources.length === 0) return '';
  const lines = sources.map((s, i) => {
    // The address is already normalised (percent-encoded, no spaces, < or >) by the client.
    const link = `<${s.url}>`;
    return `${i + 1}. ${s.title ? `[${markdownText(s.title)}](${link})` : link}`;
  });
  return `\n\n**${l10n.t('Sources')}**\n\n${lines.join('\n')}\n`;
}
