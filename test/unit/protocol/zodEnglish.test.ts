// The schemas are zod/mini's, which has no messages of its own ("Invalid input" for every issue):
// the modules that word an issue for a log, an error or a refused import set zod's English ones.
// Checked in a process of its own: in the test run, classic zod (used by the test server) would
// set them for everyone.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const src = (module: string) => JSON.stringify(path.join(root, 'src', module));
const file = JSON.stringify(JSON.stringify({ format: 'ai-chat-conversation', version: 1, exportedAt: 'x', conversation: { id: '' } }));

describe("zod's English messages with zod/mini", () => {
  let seen: { protocol: unknown; exportFile: unknown; client: unknown };
  before(() => {
    // Each module alone in a fresh Node (with tsx), so that none sets the messages for another.
    const run = (module: string, expr: string): unknown => {
      const script = `const m = require(${src(module)}); console.log(JSON.stringify(${expr}));`;
      return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, encoding: 'utf8' }));
    };
    seen = {
      protocol: run('protocol/messages.ts', "m.parseWebviewMessage({ type: 'setTemperature', value: 9 })"),
      exportFile: run('core/export/format.ts', `m.parseExportText(${file}).issues[0]`),
      client: run('client/schemas.ts', "m.ModelListSchema.safeParse('x').error.issues[0].message"),
    };
  });

  it('the protocol names the rule a message breaks', () => {
    assert.deepEqual(seen.protocol, { ok: false, error: 'value: Too big: expected number to be <=2' });
  });

  it('a refused conversation file says what is wrong', () => {
    assert.equal(seen.exportFile, 'conversation.id: Too small: expected string to have >=1 characters');
  });

  it("the service client's schemas carry them too", () => {
    assert.equal(seen.client, 'Invalid input: expected array, received string');
  });
});
