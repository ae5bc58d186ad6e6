import * as l10n from '@vscode/l10n';
// Where the API key may go. Pure: the settings, the remembered decisions and the key's bound
// origin are passed in; the extension asks the user and stores the answers.
//
// Rules:
// - the service address is the user's own value (user or remote settings, else the default);
//   a workspace or workspace-folder value is used only once the user allowed it for that
//   workspace and that exact address; until then it is reported as ignored, never used;
// - the key is bound to the origin it was checked against; any other origin needs the user's
//   consent before the key is sent there;
// - http:// to a host other than loopback sends the key in clear text: the consent says so.

/** The values of aiChat.baseUrl at each level (as VS Code's inspect() reports them). */
export interface BaseUrlLevels {
  defaultValue: string;
  userValue?: string;
  workspaceValue?: string;
  workspaceFolderValue?: string;
}

export interface BaseUrlChoice {
  /** The address requests go to. */
  url: string;
  source: 'default' | 'user' | 'workspace';
  /** A workspace address that is not used because the user has not allowed it. */
  ignoredWorkspaceUrl?: string;
}

/** Trims, drops trailing slashes; undefined when not an http(s) URL with a host and no credentials. */
export function cleanServiceUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const v = value.trim().replace(/\/+$/, '');
  if (!v) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  if (!u.hostname || u.username || u.password) return undefined;
  return v;
}

/** Origin of an http(s) URL (scheme, host, port), lower-cased by URL; undefined when invalid. */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The address to use. `allowed(url)` says whether the user allowed this workspace's address.
 * A workspace-folder value wins over a workspace value, as in VS Code.
 */
export function chooseBaseUrl(levels: BaseUrlLevels, allowed: (url: string) => boolean): BaseUrlChoice {
  const own = cleanServiceUrl(levels.userValue);
  const fallback = cleanServiceUrl(levels.defaultValue) ?? levels.defaultValue;
  const mine: BaseUrlChoice = own ? { url: own, source: 'user' } : { url: fallback, source: 'default' };
  const ws = cleanServiceUrl(levels.workspaceFolderValue) ?? cleanServiceUrl(levels.workspaceValue);
  if (!ws || ws === mine.url) return mine;
  if (allowed(ws)) return { url: ws, source: 'workspace' };
  return { ...mine, ignoredWorkspaceUrl: ws };
}

/** True for localhost names and loopback addresses (127.0.0.0/8, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (/^127(\.\d{1,3}){3}$/.test(h)) return true;
  if (/^::ffff:127(\.\d{1,3}){3}$/.test(h)) return true;
  return false;
}

/** The key would travel in clear text: http:// to a host that is not loopback. */
export function isCleartext(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' && !isLoopbackHost(u.hostname);
  } catch {
    return false;
  }
}

export type KeyRoute =
  /** The key may be sent. */
  | { send: true }
  /** Ask the user first; `reason` tells the question to ask. */
  | { send: false; reason: 'new-origin' | 'cleartext'; origin: string; boundOrigin?: string };

/**
 * Whether the key may go to `url` now. `boundOrigin`: the origin the key was checked against
 * (undefined for a key stored before binding existed: it is bound to the first origin used, which
 * is the user's own address, so no question). `approved`: origins the user already agreed to.
 */
export function keyRoute(url: string, boundOrigin: string | undefined, approved: ReadonlySet<string>): KeyRoute {
  const origin = originOf(url);
  if (!origin) return { send: false, reason: 'new-origin', origin: url, boundOrigin };
  if (approved.has(origin)) return { send: true };
  if (isCleartext(url)) return { send: false, reason: 'cleartext', origin, boundOrigin };
  if (boundOrigin === undefined || boundOrigin === origin) return { send: true };
  return { send: false, reason: 'new-origin', origin, boundOrigin };
}

/** The question shown before the key goes somewhere new (message and detail of a modal). */
export function keyConsentText(route: Exclude<KeyRoute, { send: true }>, workspaceUrl?: string): { message: string; detail: string } {
  const where = workspaceUrl ?? route.origin;
  const lines: string[] = [];
  if (workspaceUrl) {
    lines.push(
      l10n.t('This workspace\'s settings name {0} as the AI Chat service. If you allow it, your API key and your messages are sent there while this workspace is open. Allow it only if you trust this repository.', workspaceUrl),
    );
  } else if (route.boundOrigin) {
    lines.push(l10n.t('Your API key was checked against {0}. The service address now points to {1}.', route.boundOrigin, route.origin));
  }
  if (isCleartext(where)) {
    lines.push(l10n.t('The address uses http:// to another machine: the key would travel in clear text, readable by anyone on the network path.'));
  }
  return { message: l10n.t('Send your AI Chat API key to {0}?', where), detail: lines.join('\n\n') };
}

/** A stable key for remembering the decision on one workspace's address. */
export function workspaceDecisionKey(workspaceId: string, url: string): string {
  return `${workspaceId}\u0000${url}`;
}
