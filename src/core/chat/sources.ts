// The sources a reply cites (the stream's `h` parts), as the numbered list that ends the reply:
// titles as plain text (every Markdown character escaped), addresses only http(s), each link
// going through the panel's link handling like any other.
import * as l10n from '@vscode/l10n';
import type { ReplyFile, ReplySource } from '../../client/reply';

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

/** A size in bytes for people: bytes, KB or MB. */
function size(bytes: number): string {
  if (bytes < 1024) return l10n.t('{0} bytes', bytes);
  if (bytes < 1024 * 1024) return l10n.t('{0} KB', Math.round(bytes / 102.4) / 10);
  return l10n.t('{0} MB', Math.round(bytes / (1024 * 102.4)) / 10);
}

/** The name a file of the reply is listed under: its place and the media type's subtype (`file-1.png`). */
export function replyFileName(index: number, mimeType: string): string {
  const sub = (mimeType.split('/')[1] ?? '').split(/[+;]/)[0].replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 10);
  const ext = sub === 'jpeg' ? 'jpg' : sub === 'plain' ? 'txt' : sub;
  return `file-${index + 1}${ext ? `.${ext}` : ''}`;
}

/**
 * The files the model produced, as a Markdown section to append to the reply ('' when none):
 * each named, with its media type and size, as plain text (the data itself is not kept).
 */
export function filesMarkdown(files: readonly ReplyFile[]): string {
  if (files.length === 0) return '';
  const lines = files.map((f, i) => `${i + 1}. ${replyFileName(i, f.mimeType)} (${markdownText(f.mimeType)}, ${size(f.bytes)})`);
  return `\n\n**${l10n.t('Files')}**\n\n${lines.join('\n')}\n\n${l10n.t('The service sent these files with the reply; they are listed, not kept.')}\n`;
}
