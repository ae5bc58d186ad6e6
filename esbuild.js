// Builds the extension host bundle (dist/extension.js, CommonJS for Node) and the
// webview bundle (media/dist/webview.js, an IIFE for the browser) separately.
// Flags: --watch rebuilds on change, --production minifies and drops source maps.
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: !production,
    minify: production,
    logLevel: 'info',
  },
  {
    entryPoints: ['src/webview/main.ts'],
    outfile: 'media/dist/webview.js',
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: production ? false : 'inline',
    minify: production,
    logLevel: 'info',
  },
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

async function main() {
  copyCodicons();
  if (watch) {
    for (const options of builds) {
      const ctx = await esbuild.context(options);
      await ctx.watch();
    }
    return;
  }
  await Promise.all(builds.map((options) => esbuild.build(options)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
