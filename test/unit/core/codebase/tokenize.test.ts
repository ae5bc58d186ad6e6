// The words of code and questions, as the codebase index compares them.
import { strict as assert } from 'node:assert';
import { definitionsOf, identifierParts, pathTerms, stem, tokenize } from '../../../../src/core/codebase';

describe('codebase index: tokenizer', () => {
  it('splits identifiers at camelCase, acronyms, snake_case, kebab-case and digits, and keeps the whole', () => {
    assert.deepEqual(identifierParts('parseHTTPResponse2x'), ['parse', 'http', 'response', '2', 'x']);
    assert.deepEqual(identifierParts('MAX_RETRY_COUNT'), ['max', 'retry', 'count']);
    assert.deepEqual(tokenize('retryRequest'), ['retry', 'request', 'retryrequest']);
    assert.deepEqual(tokenize('max_retry_count'), ['max', 'retry', 'count', 'maxretrycount']);
  });

  it('lowercases, stems lightly and drops keywords and one-letter words', () => {
    assert.deepEqual(tokenize('Where ARE the Retries handled? if (x) return'), ['retry', 'handl']);
    for (const [word, stemmed] of [
      ['retries', 'retry'],
      ['retrying', 'retry'],
      ['retried', 'retry'],
      ['parse', 'pars'],
      ['parsed', 'pars'],
      ['parsing', 'pars'],
      ['requests', 'request'],
      ['matches', 'match'],
      ['stopped', 'stop'],
      ['class', 'class'],
      ['status', 'status'],
    ]) {
      assert.equal(stem(word), stemmed, word);
    }
  });

  it('reads a path as its folders, its name and its extension', () => {
    assert.deepEqual(pathTerms('src/net/retryPolicy.ts'), ['src', 'net', 'retry', 'policy', 'retrypolicy', 'ts']);
  });

  it('finds definitions per language family, not calls or locals', () => {
    const ts = 'export function retryRequest(a) {\n  const local = 1;\n  retryRequest(a);\n}\nexport class Pool {\n  async send(req: R): Promise<void> {\n    if (x) {\n    }\n  }\n}\ninterface Options {}\nexport const LIMIT = 3;\n';
    assert.deepEqual(
      definitionsOf('a.ts', ts).map((d) => `${d.name}@${d.line}`),
      ['retryRequest@1', 'Pool@5', 'send@6', 'Options@11', 'LIMIT@12'],
    );
    assert.deepEqual(definitionsOf('a.py', 'def fetch_all():\n    pass\nclass Client:\n    def send(self):\n').map((d) => d.name), ['fetch_all', 'Client', 'send']);
    assert.deepEqual(definitionsOf('a.go', 'func (c *Client) Do(r *Request) error {\n}\ntype Pool struct {\n').map((d) => d.name), ['Do', 'Pool']);
    assert.deepEqual(definitionsOf('a.rs', 'pub fn connect() {}\nimpl Display for Pool {\n').map((d) => d.name), ['connect', 'Pool']);
  });
});
