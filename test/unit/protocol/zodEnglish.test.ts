// The schemas are zod/mini's, which has no messages of its own ("Invalid input" for every issue):
// the modules that word an issue for a log, an error or a refused import set zod's English ones.
// Checked on each module bundled as esbuild.js bundles it (the sources are marked free of side
// effects, so a bare import of the setting would be dropped), each bundle with its own copy of zod:
// in the test run, classic zod (used by the test server) would set them for everyone.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(__dirname, '../../..');

/** The exports of `module` (under src/) bundled alone, as the extension's bundles are built. */
async function bundled(module: string): Promise<Record<string, (...args: unknown[]) => unknown> & Record<string, { safeParse(v: unknown): { error: { issues: Array<{ message: string }> } } }>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'aichat-zod-'));
  try {
    const outfile = path.join(dir, 'bundle.cjs');
    await esbuild.build({ entryPoints: [path.join(root, 'src', module)], outfile, bundle: true, platform: 'node', format: 'cjs', logLevel: 'silent' });
    // As CommonJS, its exports are the module's default or its named exports, depending on the loader.
    const loaded = (await import(pathToFileURL(outfile).href)) as { default?: never };
    return loaded.default ?? (loaded as never);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("zod's English messages with zod/mini", function () {
  this.timeout(60_000);

  it('the protocol names the rule a message breaks', async () => {
    const { parseWebviewMessage } = await bundled('protocol/messages.ts');
    assert.deepEqual(parseWebviewMessage({ type: 'setTemperature', value: 9 }), { ok: false, error: 'value: Too big: expected number to be <=2' });
  });

  it('a refused conversation file says what is wrong', async () => {
    const { parseExportText } = await bundled('core/export/format.ts');
    const file = { format: 'ai-chat-conversation', version: 1, exportedAt: 'x', conversation: { id: '' } };
    const parsed = parseExportText(JSON.stringify(file)) as { issues: string[] };
    assert.equal(parsed.issues[0], 'conversation.id: Too small: expected string to have >=1 characters');
  });

  it("the service client's schemas carry them too", async () => {
    const { ModelListSchema } = await bundled('client/schemas.ts');
    assert.equal(ModelListSchema.safeParse('x').error.issues[0].message, 'Invalid input: expected array, received string');
  });
});
