import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';

// Layering rules of the project (README, "Layout"):
// - src/client, src/core and src/protocol never import `vscode`;
// - src/webview imports only src/protocol, its own files and browser libraries.
const root = resolve(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(ts|tsx|js|mjs)$/.test(name)) out.push(full);
  }
  return out;
}

const importRe = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]\s*\)|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

export function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs: string[] = [];
  for (const m of text.matchAll(importRe)) specs.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  return specs;
}

describe('layer boundaries', () => {
  for (const layer of ['client', 'core', 'protocol']) {
    it(`src/${layer} does not import vscode`, () => {
      const offenders = sourceFiles(join(root, 'src', layer)).filter((f) => importsOf(f).includes('vscode'));
      assert.deepEqual(offenders.map((f) => relative(root, f)), []);
    });
  }

  it('src/webview imports only src/protocol, its own files and browser libraries', () => {
    const webview = join(root, 'src', 'webview');
    const protocol = join(root, 'src', 'protocol');
    const bad: string[] = [];
    for (const file of sourceFiles(webview)) {
      for (const spec of importsOf(file)) {
        if (spec === 'vscode' || spec.startsWith('node:')) {
          bad.push(`${relative(root, file)} -> ${spec}`);
        } else if (spec.startsWith('.')) {
          const target = resolve(dirname(file), spec);
          const inside = (d: string) => target === d || target.startsWith(d + sep);
          if (!inside(webview) && !inside(protocol)) bad.push(`${relative(root, file)} -> ${spec}`);
        }
      }
    }
    assert.deepEqual(bad, []);
  });

  it('the import scanner sees every import form', () => {
    // Guards the rule above: a scanner that saw nothing would pass every file.
    const tmp = join(root, 'test', 'unit', 'boundaries.test.ts');
    assert.ok(importsOf(tmp).includes('node:assert'));
  });
});
