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
  /** Translations of the panel's strings (vscode.l10n.bundle); absent in English. */
  l10nBundle?: Record<string, string>;
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'", // l10n-ignore: security policy and page markup
    `script-src 'nonce-${nonce}'`, // l10n-ignore: security policy and page markup
    `style-src ${cspSource}`, // l10n-ignore: security policy and page markup
    `img-src ${cspSource} data:`, // l10n-ignore: security policy and page markup
    `font-src ${cspSource}`, // l10n-ignore: security policy and page markup
    "connect-src 'none'", // l10n-ignore: security policy and page markup
    "base-uri 'none'", // l10n-ignore: security policy and page markup
    "form-action 'none'", // l10n-ignore: security policy and page markup
    "frame-src 'none'", // l10n-ignore: security policy and page markup
  ].join('; ');
}

/** A page under the strict CSP: the given stylesheets in the head, then `body`. */
function page(cspSource: string, nonce: string, styles: string[], body: string): string {
  const links = styles.map((href) => `<link rel="stylesheet" href="${attr(href)}">`).join('\n');
  // l10n-ignore: page markup (the title is not shown: panels and views take theirs from VS Code)
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

/** ` data-l10n="…"`: the translations as escaped JSON, read by the panel before it builds anything. */
function l10nAttribute(bundle: Record<string, string> | undefined): string {
  return bundle && Object.keys(bundle).length ? ` data-l10n="${attr(JSON.stringify(bundle))}"` : '';
}

export function chatHtml(input: ChatHtmlInput): string {
  return page(
    input.cspSource,
    input.nonce,
    [input.codiconCssUri, input.chatCssUri, input.renderCssUri],
    `<div id="app" class="app" data-surface="${input.surface === 'view' ? 'view' : 'panel'}"${l10nAttribute(input.l10nBundle)}></div>
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
