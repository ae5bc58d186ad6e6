import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chatHtml } from '../../../src/extension/chat/common/html';
import { readL10nBundle } from '../../../src/protocol';
import { findUnlocalized, scanProject } from './uiText';

// Localization: every user-visible string goes through l10n.t (vscode.l10n.t in the host,
// @vscode/l10n in pure code and the panel), the manifest through package.nls.json, and the
// committed l10n/bundle.l10n.json lists every string (`npm run l10n` regenerates it).
const root = path.resolve(__dirname, '..', '..', '..');

describe('localization', function () {
  this.timeout(60_000);

  describe('the scan for text that bypasses l10n.t', () => {
    const flagged = (code: string, file = 'src/extension/a.ts') => findUnlocalized(file, code).map((f) => f.text);

    it('flags messages, labels, tooltips and panel text written as plain literals or templates', () => {
      assert.deepEqual(flagged("vscode.window.showErrorMessage('The key was not saved.');"), ['The key was not saved.']);
      assert.deepEqual(flagged('const item = { label: `${n} matching messages` };'), ['{} matching messages']);
      assert.deepEqual(flagged("b.title = 'Retry';", 'src/webview/main.ts'), ['Retry']);
      assert.deepEqual(flagged("if (choice === 'Save Anyway') save();"), ['Save Anyway'], 'a button answer compared with English');
      assert.deepEqual(flagged("return { reason: 'Inactive: the service does not offer it now' };", 'src/core/models.ts'), [
        'Inactive: the service does not offer it now',
      ]);
    });

    it('accepts the localized forms, logs, ids, class names, keys and marked lines', () => {
      assert.deepEqual(flagged("vscode.window.showErrorMessage(vscode.l10n.t('The key {0} was not saved.', k));"), []);
      assert.deepEqual(flagged("el.textContent = l10n.t('Retry');", 'src/webview/main.ts'), []);
      assert.deepEqual(flagged("this.logger?.warn('Could not save the conversation', { e });"), []);
      assert.deepEqual(flagged("vscode.commands.executeCommand('aiChat.openChat'); const c = { class: 'primary send' };"), []);
      assert.deepEqual(flagged("if (e.key === 'Page Up') return; type T = 'A b';"), []);
      assert.deepEqual(flagged("const p = 'Please go on'; // l10n-ignore: sent to the model"), []);
    });

    it('finds no user-visible literal outside l10n.t in src/extension, src/core, src/protocol and src/webview', () => {
      const found = scanProject(root).map((f) => `${f.file}:${f.line} ${JSON.stringify(f.text)}`);
      assert.deepEqual(found, [], 'wrap these in l10n.t (or mark a line that is not shown to users with "// l10n-ignore: why")');
    });
  });

  it('l10n/bundle.l10n.json is what `npm run l10n` exports from the sources (no string forgotten)', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'l10n-'));
    try {
      const cli = path.join(root, 'node_modules', '@vscode', 'l10n-dev', 'dist', 'cli.js');
      execFileSync(process.execPath, [cli, 'export', '--outDir', out, path.join(root, 'src')], { stdio: 'pipe' });
      const fresh = JSON.parse(readFileSync(path.join(out, 'bundle.l10n.json'), 'utf8')) as Record<string, unknown>;
      const committed = JSON.parse(readFileSync(path.join(root, 'l10n', 'bundle.l10n.json'), 'utf8')) as Record<string, unknown>;
      assert.deepEqual(committed, fresh, 'run `npm run l10n` and commit l10n/bundle.l10n.json');
      assert.ok(Object.keys(fresh).length > 150, `the bundle lists the strings (${Object.keys(fresh).length})`);
      for (const s of ['Send', 'Jump to latest', 'Could not get the balance: {0}', 'AI Chat: API key cleared.']) {
        assert.ok(s in fresh, `"${s}" is in the bundle`);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  describe('the manifest', () => {
    const pkg = readFileSync(path.join(root, 'package.json'), 'utf8');
    const nls = JSON.parse(readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
    const manifest = JSON.parse(pkg) as { l10n?: string; contributes: Record<string, unknown> } & Record<string, unknown>;

    it('every %key% of package.json is in package.nls.json, and every entry there is used', () => {
      const keys = [...pkg.matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]);
      assert.ok(keys.length > 30, `the manifest uses %keys% (${keys.length})`);
      for (const k of keys) assert.equal(typeof nls[k], 'string', `package.nls.json has "${k}"`);
      for (const k of Object.keys(nls)) assert.ok(keys.includes(k), `"${k}" of package.nls.json is used`);
      assert.equal(manifest.l10n, './l10n');
    });

    it('package.nls.json and the bundle are packaged', () => {
      const ignore = readFileSync(path.join(root, '.vscodeignore'), 'utf8');
      assert.match(ignore, /^!package\.nls\.json$/m);
      assert.match(ignore, /^!l10n\/bundle\.l10n\.json$/m);
    });

    it('no user-visible manifest field is a literal', () => {
      const visible = /^(displayName|description|title|shortTitle|category|name|contextualTitle|markdownDescription|enumDescriptions|markdownEnumDescriptions|deprecationMessage|markdownDeprecationMessage|patternErrorMessage|altText|label)$/;
      const literals: string[] = [];
      const walk = (value: unknown, where: string, key: string): void => {
        if (typeof value === 'string') {
          // A chat participant's name is the handle typed after "@", and its commands' names after "/": not text.
          const handle = /chatParticipants\[\d+\](\.commands\[\d+\])?\.name$/.test(where);
          if (visible.test(key) && !handle && !/^%[^%]+%$/.test(value)) literals.push(`${where}: ${value}`);
        } else if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${where}[${i}]`, key));
        else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${where}.${k}`, k);
      };
      walk({ displayName: manifest.displayName, description: manifest.description }, 'package', '');
      walk(manifest.contributes, 'contributes', '');
      assert.deepEqual(literals, []);
    });
  });

  describe('the panel gets its translations from the host', () => {
    const page = (bundle?: Record<string, string>) =>
      chatHtml({ cspSource: 'vscode-webview:', nonce: 'n', scriptUri: 's', chatCssUri: 'c', renderCssUri: 'r', codiconCssUri: 'i', l10nBundle: bundle });

    it('the page carries the bundle as escaped JSON that the panel reads back', () => {
      const bundle = { Send: 'Senden', 'Jump to latest': 'Zum Neuesten "<springen>" & mehr' };
      const html = page(bundle);
      const attr = /data-l10n="([^"]*)"/.exec(html)?.[1];
      assert.ok(attr, 'data-l10n is on the page');
      assert.ok(!attr.includes('<') && !attr.includes('"'), 'escaped for an attribute');
      const decoded = attr.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      assert.deepEqual(readL10nBundle(decoded), bundle);
    });

    it('the page has no source comment in its markup', () => {
      assert.ok(!page().includes('l10n-ignore') && !page().includes('//'), page());
    });

    it('English needs no bundle, and a damaged one is ignored', () => {
      assert.ok(!page(undefined).includes('data-l10n'));
      assert.ok(!page({}).includes('data-l10n'));
      assert.equal(readL10nBundle('{"Send": 3}'), undefined);
      assert.equal(readL10nBundle('not json'), undefined);
      assert.equal(readL10nBundle(undefined), undefined);
    });
  });
});
