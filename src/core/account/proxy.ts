import * as l10n from '@vscode/l10n';
// Which proxy a request to the service goes through. Pure: VS Code's settings and the process
// environment are passed in.
//
// Sources, in order: VS Code's `http.proxy`, then HTTPS_PROXY / https_proxy (for https targets)
// or HTTP_PROXY / http_proxy (for http targets). `http.noProxy` and NO_PROXY / no_proxy name the
// hosts that are reached directly. `http.proxyStrictSSL` (default true) decides whether TLS
// certificates are checked, for the service and for an https proxy. `http.proxySupport` "off"
// turns proxies off for extensions: then no source is used and every request goes direct.

/** VS Code's settings that decide the proxy: a change of any of them builds new clients. */
export const PROXY_SETTINGS: readonly string[] = ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy', 'http.proxySupport'];

export interface ProxyInputs {
  /** VS Code's http.proxy. */
  httpProxy?: string;
  /** VS Code's http.proxyStrictSSL (default true). */
  strictSSL?: boolean;
  /** VS Code's http.noProxy. */
  noProxy?: readonly string[];
  /** VS Code's http.proxySupport: "off", "on", "fallback" or "override" (the default); "off" means no proxy. */
  proxySupport?: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** ProxyInputs from VS Code's `http` settings (`get` reads one of them, e.g. get('proxy')) and the environment. */
export function proxyInputsFrom(get: (key: string) => unknown, env: ProxyInputs['env']): ProxyInputs {
  const proxy = get('proxy');
  const noProxy = get('noProxy');
  const support = get('proxySupport');
  return {
    httpProxy: typeof proxy === 'string' && proxy ? proxy : undefined,
    strictSSL: get('proxyStrictSSL') !== false,
    noProxy: Array.isArray(noProxy) ? noProxy.filter((x): x is string => typeof x === 'string') : [],
    proxySupport: typeof support === 'string' ? support : undefined,
    env,
  };
}

export interface ProxyChoice {
  /** Proxy URL to use, or undefined for a direct connection. */
  proxy?: string;
  /** Where the proxy (or the decision to go direct) came from, for the log. */
  source: 'http.proxy' | 'HTTPS_PROXY' | 'HTTP_PROXY' | 'none';
  /** The target matched http.noProxy / NO_PROXY. */
  bypassed?: 'http.noProxy' | 'NO_PROXY';
  /** Proxies are turned off (http.proxySupport "off"): direct, whatever names a proxy. */
  off?: 'http.proxySupport';
  /** Check TLS certificates. */
  strictSSL: boolean;
}

/** A proxy value that cannot be used, naming the setting or variable it came from. */
export class ProxyConfigError extends Error {
  constructor(
    readonly setting: string,
    readonly value: string,
    why: string,
  ) {
    super(l10n.t('The proxy in {0} ("{1}") cannot be used: {2}. Fix {3} (for example http://proxy.example.com:8080).', setting, value, why, setting));
    this.name = 'ProxyConfigError';
  }
}

function envValue(env: ProxyInputs['env'], name: string): string | undefined {
  const v = env[name] ?? env[name.toLowerCase()];
  return v && v.trim() ? v.trim() : undefined;
}

/**
 * A proxy URL with a scheme: `proxy:8080` and `user:pw@proxy:8080` become `http://...`.
 * Throws ProxyConfigError naming `setting` for anything else that is not an http(s) URL with a host.
 */
export function normalizeProxyUrl(value: string, setting: string): string {
  const raw = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw new ProxyConfigError(setting, raw, l10n.t('it is not a URL'));
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new ProxyConfigError(setting, raw, l10n.t('the scheme {0} is not supported (use http:// or https://)', u.protocol));
  }
  if (!u.hostname) throw new ProxyConfigError(setting, raw, l10n.t('it names no host'));
  return withScheme.replace(/\/+$/, '');
}

/** NO_PROXY-style list: comma or space separated. */
export function splitNoProxy(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Whether host:port is in a no-proxy list. Entries: `*` (everything), a host name (matches it and
 * its subdomains), `.example.com` / `*.example.com` (subdomains and the domain), an IP address,
 * an IPv4 CIDR block, any of them with `:port`.
 */
export function matchesNoProxy(hostname: string, port: number, entries: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  for (const raw of entries) {
    let entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    let entryPort: number | undefined;
    const m = /^(.*):(\d+)$/.exec(entry);
    if (m && !entry.includes('::') && !/^\[/.test(entry)) {
      entry = m[1];
      entryPort = Number(m[2]);
    } else {
      const b = /^\[(.+)\](?::(\d+))?$/.exec(entry);
      if (b) {
        entry = b[1];
        entryPort = b[2] ? Number(b[2]) : undefined;
      }
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    if (entry.includes('/')) {
      if (inCidr(host, entry)) return true;
      continue;
    }
    entry = entry.replace(/^\*?\./, '');
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

function ipv4(s: string): number | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

function inCidr(host: string, cidr: string): boolean {
  const [net, bitsText] = cidr.split('/');
  const a = ipv4(host);
  const b = ipv4(net);
  const bits = Number(bitsText);
  if (a === undefined || b === undefined || !Number.isInteger(bits) || bits < 0 || bits > 32) return false;
  if (bits === 0) return true;
  const size = 2 ** (32 - bits);
  return Math.floor(a / size) === Math.floor(b / size);
}

/** The proxy for requests to `target` (the service's base URL). */
export function resolveProxy(target: string, inputs: ProxyInputs): ProxyChoice {
  const strictSSL = inputs.strictSSL !== false;
  if (inputs.proxySupport?.trim().toLowerCase() === 'off') return { source: 'none', off: 'http.proxySupport', strictSSL };
  const url = new URL(target);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const fromSetting = inputs.httpProxy?.trim();
  if (fromSetting) {
    if (matchesNoProxy(url.hostname, port, inputs.noProxy ?? [])) return { source: 'none', bypassed: 'http.noProxy', strictSSL };
    return { proxy: normalizeProxyUrl(fromSetting, 'http.proxy'), source: 'http.proxy', strictSSL };
  }
  const name = url.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  const fromEnv = envValue(inputs.env, name) ?? (name === 'HTTPS_PROXY' ? envValue(inputs.env, 'HTTP_PROXY') : undefined);
  if (!fromEnv) return { source: 'none', strictSSL };
  const noProxy = [...(inputs.noProxy ?? []), ...splitNoProxy(envValue(inputs.env, 'NO_PROXY'))];
  if (matchesNoProxy(url.hostname, port, noProxy)) {
    return { source: 'none', bypassed: (inputs.noProxy ?? []).length && matchesNoProxy(url.hostname, port, inputs.noProxy ?? []) ? 'http.noProxy' : 'NO_PROXY', strictSSL };
  }
  const sourceName = envValue(inputs.env, name) ? name : 'HTTP_PROXY';
  return { proxy: normalizeProxyUrl(fromEnv, sourceName), source: sourceName, strictSSL };
}
