// The chat panel's HTML. No `vscode` import: URIs come in as strings.

export interface ChatHtmlInput {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  chatCssUri: string;
  renderCssUri: string;
  /** The codicon font's stylesheet (copied into media/dist by the build). */
  codiconCssUri: string;
  /** Where the chat is shown: an editor panel or the side bar view (the view has title actions). */
  surface?: 'panel' | 'view';
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-src 'none'",
  ].join('; ');
}

/** A page under the strict CSP: the given stylesheets in the head, then `body`. */
function page(cspSource: string, nonce: string, styles: string[], body: string): string {
  const links = styles.map((href) => `<link rel="stylesheet" href="${attr(href)}">`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${links}
<title>AI Chat</title>
</head>
<body>
${body}
</body>
</html>`;
}

export function chatHtml(input: ChatHtmlInput): string {
  return page(
    input.cspSource,
    input.nonce,
    [input.codiconCssUri, input.chatCssUri, input.renderCssUri],
    `<div id="app" class="app" data-surface="${input.surface === 'view' ? 'view' : 'panel'}"></div>
<script nonce="${attr(input.nonce)}" src="${attr(input.scriptUri)}"></script>`,
  );
}

export interface PlaceholderHtmlInput {
  cspSource: string;
  nonce: string;
  chatCssUri: string;
  codiconCssUri: string;
  text: string;
  buttonLabel: string;
}

/** The side bar view while the chat is in an editor: a line and one button (posts `bringBack`). */
export function placeholderHtml(input: PlaceholderHtmlInput): string {
  return page(
    input.cspSource,
    input.nonce,
    [input.codiconCssUri, input.chatCssUri],
    `<div class="placeholder">
<p>${attr(input.text)}</p>
<button type="button" id="bring-back" class="primary"><span class="codicon codicon-layout-sidebar-left" aria-hidden="true"></span> ${attr(input.buttonLabel)}</button>
</div>
<script nonce="${attr(input.nonce)}">
const api = acquireVsCodeApi();
document.getElementById('bring-back').addEventListener('click', () => api.postMessage({ type: 'bringBack' }));
</script>`,
  );
}
