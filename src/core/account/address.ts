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
  /** The address requests go to (the unusable value, credentials masked, when `invalid.level` is 'user'). */
  url: string;
  source: 'default' | 'user' | 'workspace';
  /** A workspace address that is not used because the user has not allowed it. */
  ignoredWorkspaceUrl?: string;
  /**
   * A value of aiChat.baseUrl that is not a usable address. `level: 'user'`: the user's own value;
   * nothing is sent anywhere until it is fixed (never a silent fall back to the default address).
   * `level: 'workspace'`: the workspace's value, ignored like any workspace address.
   */
  invalid?: InvalidServiceUrl;
}

export const BASE_URL_SETTING = 'aiChat.baseUrl';

/** A value of aiChat.baseUrl that cannot be used, and why (for the user). */
export interface InvalidServiceUrl {
  level: 'user' | 'workspace';
  /** The value as the user can be shown it: a user name or password in it is replaced by `***`. */
  shown: string;
  /** Why it cannot be used, and what would. */
  why: string;
}

export type ServiceUrlCheck = { ok: true; url: string } | { ok: false; why: string };

/** `value` with any user name and password in its authority replaced by `***` (for messages and logs). */
export function maskUrlCredentials(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@');
}

/**
 * Checks an address for the service: http(s), a host, no user name or password (the API key is the
 * only credential sent). Trims and drops trailing slashes. Empty: `{ ok: false }` with no reason.
 */
export function checkServiceUrl(value: unknown): ServiceUrlCheck {
  if (typeof value !== 'string') return { ok: false, why: l10n.t('it is not text') };
  const v = value.trim().replace(/\/+$/, '');
  if (!v) return { ok: false, why: '' };
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) {
    // `localhost:8787` parses as the scheme "localhost:"; `chat.example.com/api` does not parse.
    let host: string | undefined;
    try {
      host = new URL(`http://${v}`).hostname;
    } catch {
      host = undefined;
    }
    if (host) {
      const scheme = isLoopbackHost(host) ? 'http://' : 'https://';
      return { ok: false, why: l10n.t('it has no http:// or https:// at the start (for example {0})', maskUrlCredentials(scheme + v)) };
    }
    return { ok: false, why: l10n.t('it is not a URL (for example https://chat.example.com/api)') };
  }
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return { ok: false, why: l10n.t('it is not a URL (for example https://chat.example.com/api)') };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return { ok: false, why: l10n.t('the scheme {0} is not supported (use http:// or https://)', u.protocol) };
  }
  if (!u.hostname) return { ok: false, why: l10n.t('it names no host') };
  if (u.username || u.password) {
    return { ok: false, why: l10n.t('it contains a user name or password; remove them (the API key is the only credential sent)') };
  }
  return { ok: true, url: v };
}

/** Trims, drops trailing slashes; undefined when not an http(s) URL with a host and no credentials. */
export function cleanServiceUrl(value: unknown): string | undefined {
  const c = checkServiceUrl(value);
  return c.ok ? c.url : undefined;
}

/** A service address that cannot be used: nothing is sent. Names the setting (kind `validation`). */
export class ServiceUrlError extends Error {
  readonly kind = 'validation' as const;
  readonly setting = BASE_URL_SETTING;
  constructor(
    readonly shown: string,
    readonly why: string,
  ) {
    super(l10n.t('The service address in {0} ("{1}") cannot be used: {2}. Nothing was sent. Fix {0} in your settings.', BASE_URL_SETTING, shown, why));
    this.name = 'ServiceUrlError';
  }
}

/** Throws ServiceUrlError when `url` is not a usable service address; returns the cleaned address. */
export function assertServiceUrl(url: string): string {
  const c = checkServiceUrl(url);
  if (c.ok) return c.url;
  throw new ServiceUrlError(maskUrlCredentials(url.trim()), c.why || l10n.t('it is empty'));
}

/** Why `url` cannot be used as the service address (the message of ServiceUrlError), or undefined when it can. */
export function serviceUrlProblem(url: string): string | undefined {
  try {
    assertServiceUrl(url);
    return undefined;
  } catch (err) {
    return err instanceof ServiceUrlError ? err.message : String(err);
  }
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
  const fallback = cleanServiceUrl(levels.defaultValue) ?? levels.defaultValue;
  const ownCheck = checkServiceUrl(levels.userValue);
  const ownRaw = typeof levels.userValue === 'string' ? levels.userValue.trim() : '';
  if (!ownCheck.ok && ownRaw) {
    // The user's own value cannot be used: say so, and send nothing (the default address is not
    // what they chose). A workspace address is not considered either.
    // The value is kept masked: it is shown and logged, and a password in it must not be.
    const shown = maskUrlCredentials(ownRaw);
    return { url: shown, source: 'user', invalid: { level: 'user', shown, why: ownCheck.why } };
  }
  const mine: BaseUrlChoice = ownCheck.ok ? { url: ownCheck.url, source: 'user' } : { url: fallback, source: 'default' };
  const wsRaw = [levels.workspaceFolderValue, levels.workspaceValue].find((v) => typeof v === 'string' && v.trim() !== '');
  if (wsRaw === undefined) return mine;
  const wsCheck = checkServiceUrl(wsRaw);
  if (!wsCheck.ok) return { ...mine, invalid: { level: 'workspace', shown: maskUrlCredentials(wsRaw.trim()), why: wsCheck.why } };
  const ws = wsCheck.url;
  if (ws === mine.url) return mine;
  if (allowed(ws)) return { url: ws, source: 'workspace' };
  return { ...mine, ignoredWorkspaceUrl: ws };
}

/**
 * True for the name `localhost` and literal loopback addresses (127.0.0.0/8, ::1). Other names
 * under `.localhost` are not: node resolves them through DNS, so they may reach another machine.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost') return true;
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
  /**
   * The key may be sent. `bindTo`: the key has no bound origin yet (stored before binding existed,
   * or its stored binding is not a binding); it is bound to this origin before it is sent.
   */
  | { send: true; bindTo?: string }
  /**
   * Ask the user first; `reason` tells the question to ask. 'unknown-binding': the stored binding
   * could not be read (SecretStorage failed), so where the key may go is not known.
   */
  | { send: false; reason: 'new-origin' | 'cleartext' | 'unknown-binding'; origin: string; boundOrigin?: string };

export type KeyQuestion = Exclude<KeyRoute, { send: true }>;

/**
 * Whether the key may go to `url` now. `boundOrigin`: the origin the key was checked against
 * (undefined for a key stored before binding existed: the first origin it goes to becomes its
 * bound origin, once, and any other origin afterwards is asked about). `approved`: origins the
 * user already agreed to.
 */
export function keyRoute(url: string, boundOrigin: string | undefined, approved: ReadonlySet<string>): KeyRoute {
  const origin = originOf(url);
  if (!origin) return { send: false, reason: 'new-origin', origin: url, boundOrigin };
  if (approved.has(origin)) return boundOrigin === undefined ? { send: true, bindTo: origin } : { send: true };
  if (isCleartext(url)) return { send: false, reason: 'cleartext', origin, boundOrigin };
  if (boundOrigin === undefined) return { send: true, bindTo: origin };
  if (boundOrigin === origin) return { send: true };
  return { send: false, reason: 'new-origin', origin, boundOrigin };
}

/** Where the key may go without asking: the origin it was checked against, and approved ones. */
export interface KeyBinding {
  bound?: string;
  approved: string[];
  /**
   * The binding secret exists but could not be read (a keyring or D-Bus error): not the same as
   * none. Nothing binds or approves it, and it is never written over; every origin is asked about.
   */
  unreadable?: true;
}

/** The binding of a key whose binding secret could not be read. */
export function unreadableKeyBinding(): KeyBinding {
  return { approved: [], unreadable: true };
}

/**
 * The stored binding (a JSON secret). None, or a value that is not a binding, binds nothing (the
 * first origin the key goes to becomes its bound origin). A secret that could not be read at all
 * is unreadableKeyBinding(), not this.
 */
export function parseKeyBinding(raw: string | undefined): KeyBinding {
  try {
    const v = raw ? (JSON.parse(raw) as unknown) : undefined;
    if (v && typeof v === 'object') {
      const o = v as { bound?: unknown; approved?: unknown };
      return {
        ...(typeof o.bound === 'string' ? { bound: o.bound } : {}),
        approved: Array.isArray(o.approved) ? o.approved.filter((x): x is string => typeof x === 'string') : [],
      };
    }
  } catch {
    // not a binding: none; the first origin the key goes to becomes its bound origin
  }
  return { approved: [] };
}

/**
 * The binding after the key went to `origin` for the first time: bound there, once. Origins an
 * unbound key was approved for are dropped: earlier versions approved them without a question.
 */
export function bindKey(b: KeyBinding, origin: string): KeyBinding {
  if (b.bound !== undefined || b.unreadable) return b;
  return { bound: origin, approved: [origin] };
}

/** The binding after the user agreed to send the key to `origin` (an unbound key is bound there). */
export function approveKeyOrigin(b: KeyBinding, origin: string): KeyBinding {
  if (b.unreadable) return b;
  if (b.bound === undefined) return bindKey(b, origin);
  if (b.approved.includes(origin)) return b;
  return { bound: b.bound, approved: [...b.approved, origin] };
}

/** What the gate decided for one request. */
export type KeyDecision = { status: 'no-key' } | { status: 'send'; key: string } | { status: 'refused'; origin: string };

export interface KeyGateDeps {
  /** The stored key, if any. */
  key(): Promise<string | undefined>;
  /** The stored binding (unreadableKeyBinding() when it could not be read). */
  binding(): Promise<KeyBinding>;
  /** Binds an unbound key to `origin` (nothing when already bound); resolves to the binding stored now. */
  bind(origin: string): Promise<KeyBinding>;
  /** Stores the user's consent to send the key to `origin`. */
  approve(origin: string): Promise<void>;
  /** Asks the user; true when they agreed. */
  ask(question: KeyQuestion): Promise<boolean>;
  /** True once no question may be asked any more (the window is closing). */
  closed?(): boolean;
}

/**
 * The one place that decides whether a request gets the key: binds a key that has no bound origin
 * to the first origin it goes to, asks before any other origin (one question per origin at a time,
 * shared by the requests waiting), and remembers refusals until `forgetRefusals`.
 */
export class KeyGate {
  private readonly asking = new Map<string, Promise<boolean>>();
  private readonly refused = new Set<string>();
  /**
   * Origins the user agreed to while the binding could not be read, with the key agreed for: kept
   * in this window only (the stored binding is never written over), and only for that key.
   */
  private readonly agreedUnbound = new Map<string, string>();

  constructor(private readonly deps: KeyGateDeps) {}

  async keyFor(url: string): Promise<KeyDecision> {
    const key = await this.deps.key();
    if (!key) return { status: 'no-key' };
    const b = await this.deps.binding();
    let route: KeyRoute;
    if (b.unreadable) {
      const origin = originOf(url) ?? url;
      if (this.agreedUnbound.get(origin) === key) return { status: 'send', key };
      route = { send: false, reason: 'unknown-binding', origin };
    } else {
      route = keyRoute(url, b.bound, new Set(b.approved));
    }
    if (route.send && route.bindTo) {
      // Bound now; checked again, as another request may have bound the key elsewhere meanwhile.
      const now = await this.deps.bind(route.bindTo);
      route = keyRoute(url, now.bound ?? route.bindTo, new Set(now.approved));
    }
    if (route.send) return { status: 'send', key };
    const origin = route.origin;
    if (this.deps.closed?.() || this.refused.has(origin)) return { status: 'refused', origin };
    let question = this.asking.get(origin);
    if (!question) {
      question = this.ask(route, key);
      this.asking.set(origin, question);
      void question.finally(() => this.asking.delete(origin));
    }
    return (await question) ? { status: 'send', key } : { status: 'refused', origin };
  }

  private async ask(route: KeyQuestion, key: string): Promise<boolean> {
    const agreed = await this.deps.ask(route);
    if (agreed) {
      this.refused.delete(route.origin);
      if (route.reason === 'unknown-binding') this.agreedUnbound.set(route.origin, key);
      // Stored only where the binding can be read (an unreadable one is left as it is).
      await this.deps.approve(route.origin);
    } else {
      this.refused.add(route.origin);
    }
    return agreed;
  }

  /** Origins refused in this window are asked about again. */
  forgetRefusals(): void {
    this.refused.clear();
  }
}

/** The question shown before the key goes somewhere new (message and detail of a modal). */
export function keyConsentText(route: Exclude<KeyRoute, { send: true }>, workspaceUrl?: string): { message: string; detail: string } {
  const where = workspaceUrl ?? route.origin;
  const lines: string[] = [];
  if (workspaceUrl) {
    lines.push(
      l10n.t('This workspace\'s settings name {0} as the AI Chat service. If you allow it, your API key and your messages are sent there while this workspace is open. Allow it only if you trust this repository.', workspaceUrl),
    );
  } else if (route.reason === 'unknown-binding') {
    lines.push(
      l10n.t('The address your API key is bound to could not be read from the system\'s secret storage, so AI Chat cannot tell whether {0} is the service it was checked against. Send it only if {0} is your AI Chat service. The stored binding is left as it is.', route.origin),
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
