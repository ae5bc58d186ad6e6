// The extension-host suite (test/e2e/exthost/suite) in VS Code desktop, with @vscode/test-cli:
// `npm run test:exthost:desktop` builds the extension and the suite's test file, then
// `vscode-test` downloads VS Code (into .vscode-test/) and runs the suite in its extension
// host. It needs a network that reaches VS Code's download servers and a display (xvfb-run
// on a headless Linux). Where VS Code cannot be downloaded, `npm run test:exthost` runs the
// same suite in code-server. VSCODE_TEST_VERSION picks the VS Code version (default: stable).
import { defineConfig } from '@vscode/test-cli';

export default defineConfig({
  label: 'extension host',
  files: '.cache/exthost/cli/*.test.js',
  version: process.env.VSCODE_TEST_VERSION ?? 'stable',
  workspaceFolder: 'test/e2e/fixtures/demo-project',
  launchArgs: ['--disable-extensions', '--disable-workspace-trust'],
  mocha: { ui: 'bdd', timeout: 30_000, color: true },
});
