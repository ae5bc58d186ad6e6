// `npm run bench:context`: the `#` menu on a TypeScript workspace of 10,000 files, in code-server's
// extension host (bench/context/hashMenu.exthost.ts, run alone by the extension-host runner).
// Prints the figures; asserts no time. Builds and packages the extension first unless
// E2E_SKIP_BUILD=1 and dist/ai-chat-assistant.vsix exists (as `npm run test:exthost`).
process.env.EXTHOST_BENCH = 'context';
// TypeScript loading a project of 10,000 files takes a while on a busy machine.
process.env.EXTHOST_TIMEOUT_MS ??= String(25 * 60_000);
void import('../../test/e2e/exthost/run-code-server');
