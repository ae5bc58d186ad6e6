// Builds the extension host bundle (dist/extension.js, CommonJS for Node, with a file of its own
// for each room loaded on first use), the service client
// (dist/client.js, CommonJS, loaded by the extension on its first request: undici and the zod
// schemas of the responses are not read at activation), the codebase index's worker
// (dist/codebaseWorker.js, run in a worker thread) and the webview bundle
// (media/dist/webview.js, an IIFE for the browser, with the highlight.js languages it loads when a
// block needs one in media/dist/languages.js) separately.
// Flags: --watch rebuilds on change, --production minifies, drops source maps and prints a size
// report (each bundle's size, gzip size and largest contributors, from esbuild's metafile).
const esbuild = require('esbuild');
const { readFileSync, statSync } = require('node:fs');
const { gzipSync } = require('node:zlib');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * src/extension/platform/clientModule.ts loads the client with `require('../../client')` on its
 * first use: in the extension bundle that require is left as `require('./client.js')`, the client
 * bundle beside it. Static imports of the client (types only, today) would still be bundled.
 * @type {import('esbuild').Plugin}
 */
const lazyClient = {
  name: 'lazy-client',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/\.\.\/client$/ }, (args) =>
      args.kind === 'require-call' && args.importer.replaceAll('\\', '/').endsWith('src/extension/platform/clientModule.ts')
        ? { path: './client.js', external: true }
        : undefined,
    );
    // The same for the exported web page's renderer (src/extension/export/exportCommands.ts).
    build.onResolve({ filter: /^\.\.\/\.\.\/core\/export\/htmlPage$/ }, (args) =>
      args.kind === 'require-call' && args.importer.replaceAll('\\', '/').endsWith('src/extension/export/exportCommands.ts')
        ? { path: './exportPage.js', external: true }
        : undefined,
    );
  },
};

/**
 * One `vscode` for the whole extension: every `import * as vscode from 'vscode'` of the sources
 * is a module of the bundle that re-exports the API once. Otherwise each importing module gets a
 * copy of the API object made when its file loads (an ES module's namespace over a CommonJS
 * require: a getter for each of the API's 300-odd names), 33 such copies at activation.
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' },
    );
    build.onLoad({ filter: /^vscode$/, namespace: 'vscode-once' }, () => ({ contents: "export * from 'vscode';", loader: 'js' }));
  },
};

/** @type {import('esbuild').BuildOptions} */
const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  sourcemap: !production,
  minify: production,
  metafile: production,
  logLevel: production ? 'warning' : 'info',
};

/**
 * The extension host bundle in pieces: dist/extension.js is what activation loads, and each room
 * imported with `await import(...)` (src/extension/lazyRooms.ts) is a file of its own, loaded on
 * its first use; modules both need are in shared files, so each module has one instance (one
 * l10n bundle, one logger). esbuild splits only ES modules: the pieces are built as ES modules,
 * then each is turned into CommonJS (`import()` into `require()`), which VS Code's extension host
 * loads; all of them in dist/, beside client.js and exportPage.js.
 */
const extension = {
  ...node,
  entryPoints: ['src/extension/extension.ts'],
  outdir: 'dist',
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  format: 'esm',
  splitting: true,
  // Inline, so the step that turns the pieces into CommonJS carries them on to the sources.
  sourcemap: production ? false : 'inline',
  write: false,
  plugins: [vscodeOnce, lazyClient],
};

/** The bundles of dist/ built on their own (not pieces of the extension's). */
const OWN_BUNDLES = new Set(['client.js', 'exportPage.js', 'codebaseWorker.js']);

/**
 * Writes the extension's pieces as CommonJS files (with an inline source map when not minified),
 * and removes the pieces of earlier builds (their names hold a hash: they would pile up in dist/
 * and in the package).
 */
async function writeExtension(result) {
  const fs = require('node:fs');
  const path = require('node:path');
  fs.mkdirSync('dist', { recursive: true });
  const written = new Set(result.outputFiles.map((f) => path.basename(f.path)));
  for (const name of fs.readdirSync('dist')) {
    const js = name.replace(/\.map$/, '');
    if (js.endsWith('.js') && !written.has(js) && !OWN_BUNDLES.has(js)) fs.rmSync(path.join('dist', name));
  }
  for (const file of result.outputFiles) {
    const out = await esbuild.transform(file.text, {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      minify: production,
      sourcemap: production ? false : 'inline',
      sourcefile: file.path,
    });
    fs.writeFileSync(file.path, out.code);
  }
  return result;
}

/** @type {import('esbuild').BuildOptions} */
const browser = {
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: 'es2022',
  sourcemap: production ? false : 'inline',
  minify: production,
  metafile: production,
  logLevel: production ? 'warning' : 'info',
};

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  { ...node, entryPoints: ['src/client/index.ts'], outfile: 'dist/client.js' },
  { ...node, entryPoints: ['src/core/export/htmlPage.ts'], outfile: 'dist/exportPage.js' },
  // The codebase index's worker thread (src/extension/codebase starts it; it reads the workspace off the extension host's thread).
  { ...node, entryPoints: ['src/core/codebase/worker.ts'], outfile: 'dist/codebaseWorker.js' },
  { ...browser, entryPoints: ['src/webview/main.ts'], outfile: 'media/dist/webview.js' },
  // The highlight.js languages the panel loads when a block names one (src/webview/render/languages.ts).
  { ...browser, entryPoints: ['src/webview/render/languagesChunk.ts'], outfile: 'media/dist/languages.js' },
];

/** The codicon font and its stylesheet, served to the webview from media/dist/codicons. */
function copyCodicons() {
  const fs = require('node:fs');
  const path = require('node:path');
  const from = path.join(path.dirname(require.resolve('@vscode/codicons/package.json')), 'dist');
  const to = path.join(__dirname, 'media', 'dist', 'codicons');
  fs.mkdirSync(to, { recursive: true });
  for (const name of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, name), path.join(to, name));
}

/** Rewrites the extension's pieces after each rebuild in --watch. */
const writeOnRebuild = {
  name: 'write-extension',
  setup(build) {
    build.onEnd((result) => (result.outputFiles ? writeExtension(result).then(() => undefined) : undefined));
  },
};

async function main() {
  copyCodicons();
  if (watch) {
    for (const options of [{ ...extension, plugins: [...extension.plugins, writeOnRebuild] }, ...builds]) {
      const ctx = await esbuild.context(options);
      await ctx.watch();
    }
    return;
  }
  const results = await Promise.all([esbuild.build(extension).then(writeExtension), ...builds.map((options) => esbuild.build(options))]);
  if (production) for (const result of results) console.log(sizeReport(result.metafile));
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** A package's name (`zod`, `@scope/name`) or a source folder (`src/client`) for a metafile input path. */
function contributor(input) {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at >= 0) return parts[at + 1].startsWith('@') ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
  return parts.slice(0, 2).join('/');
}

/** Each output's size, gzip size and its largest contributors (packages and source folders). */
function sizeReport(metafile) {
  const lines = [];
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (file.endsWith('.map')) continue;
    const gzip = gzipSync(readFileSync(file)).length;
    lines.push(`${file}  ${kb(statSync(file).size)}  (gzip ${kb(gzip)})`);
    const totals = new Map();
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = contributor(input);
      totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
    }
    const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 8);
    for (const [name, bytes] of top) {
      lines.push(`  ${name.padEnd(22)} ${kb(bytes).padStart(10)}  ${((100 * bytes) / output.bytes).toFixed(1).padStart(5)}%`);
    }
    // The schemas are zod/mini's (only the checks they use are bundled); an `import * as z from 'zod'` brings all of classic zod back.
    const classic = Object.keys(output.inputs).filter((input) => /node_modules\/zod\/(v4\/)?classic\//.test(input));
    if (classic.length) lines.push(`  ! classic zod is bundled (${classic.length} files): import zod/mini instead of zod in src`);
  }
  // What activation reads: dist/extension.js and the shared pieces it requires, not the rooms.
  const entry = metafile.outputs['dist/extension.js'];
  if (entry) {
    const startup = new Set();
    const visit = (file) => {
      if (startup.has(file)) return;
      startup.add(file);
      for (const i of metafile.outputs[file]?.imports ?? []) if (i.kind === 'import-statement' && metafile.outputs[i.path]) visit(i.path);
    };
    visit('dist/extension.js');
    const later = Object.keys(metafile.outputs).filter((f) => f.endsWith('.js') && !startup.has(f));
    const size = (files) => kb([...files].reduce((n, f) => n + statSync(f).size, 0));
    lines.push(`loaded at activation: ${size(startup)} (${[...startup].join(', ')}); on first use: ${size(later)} (${later.join(', ')})`);
  }
  return lines.join('\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
