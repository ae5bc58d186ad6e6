// The benchmark's questions, as a user would ask them, each with the file that answers it (read
// and checked in the package's source; a second file is accepted where the answer is split, as a
// class and its declaration file). Paths are relative to the package's folder.

export interface Question {
  q: string;
  answer: string | string[];
}

/** undici (node_modules/undici: lib/ in JavaScript, types/ in TypeScript declarations, docs/): ~210 files. */
export const UNDICI: Question[] = [
  { q: 'where is the retry of a failed request handled?', answer: 'lib/handler/retry-handler.js' },
  { q: 'how are redirects followed?', answer: 'lib/handler/redirect-handler.js' },
  { q: 'where are cookies parsed from a Set-Cookie header?', answer: 'lib/web/cookies/parse.js' },
  { q: 'how does the proxy agent tunnel through an HTTP proxy?', answer: 'lib/dispatcher/proxy-agent.js' },
  { q: 'where is the HTTP_PROXY environment variable read?', answer: 'lib/dispatcher/env-http-proxy-agent.js' },
  { q: 'how is a gzip or brotli response body decompressed?', answer: 'lib/interceptor/decompress.js' },
  { q: 'where are incoming websocket frames parsed?', answer: 'lib/web/websocket/receiver.js' },
  { q: 'how is a websocket frame masked before it is sent?', answer: ['lib/web/websocket/frame.js', 'lib/web/websocket/sender.js'] },
  { q: 'where are DNS lookup results cached?', answer: 'lib/interceptor/dns.js' },
  { q: 'how does the mock agent intercept requests in tests?', answer: ['lib/mock/mock-agent.js', 'lib/mock/mock-interceptor.js'] },
  { q: 'where is a multipart form data body parsed?', answer: 'lib/web/fetch/formdata-parser.js' },
  { q: 'how are data: URLs parsed?', answer: 'lib/web/fetch/data-url.js' },
  { q: 'which pool chooses an upstream by weight?', answer: 'lib/dispatcher/balanced-pool.js' },
  { q: 'where is the server-sent events stream parsed?', answer: 'lib/web/eventsource/eventsource-stream.js' },
  { q: 'how is an HTTP/2 session opened?', answer: 'lib/dispatcher/client-h2.js' },
  { q: 'where is subresource integrity checked?', answer: 'lib/web/subresource-integrity/subresource-integrity.js' },
  { q: 'how are responses kept in the in-memory cache?', answer: 'lib/cache/memory-cache-store.js' },
  { q: 'where is the SOCKS5 handshake done?', answer: 'lib/core/socks5-client.js' },
  { q: 'where are header values checked for invalid characters?', answer: ['lib/core/request.js', 'lib/core/util.js'] },
  { q: 'where does connecting a socket time out?', answer: ['lib/core/connect.js', 'lib/core/util.js'] },
];

/** zod (node_modules/zod/src, TypeScript): ~330 files. */
export const ZOD: Question[] = [
  { q: 'where is the email regex defined?', answer: 'v4/core/regexes.ts' },
  { q: 'how is a JSON schema generated from a zod schema?', answer: ['v4/core/to-json-schema.ts', 'v4/core/json-schema-processors.ts'] },
  { q: 'where are the error messages in German?', answer: 'v4/locales/de.ts' },
  { q: 'how is an error flattened into form and field errors?', answer: 'v4/core/errors.ts' },
  { q: 'where is z.coerce implemented?', answer: 'v4/classic/coerce.ts' },
  { q: 'how does a string check its minimum length?', answer: 'v4/core/checks.ts' },
  { q: 'where is the registry that stores metadata of schemas?', answer: 'v4/core/registries.ts' },
  { q: 'how is a JSON schema turned back into a zod schema?', answer: 'v4/classic/from-json-schema.ts' },
  { q: 'where is the Standard Schema interface declared?', answer: 'v4/core/standard-schema.ts' },
  { q: 'where are the English error messages written?', answer: 'v4/locales/en.ts' },
  { q: 'where does zod mini define its object schema?', answer: 'v4/mini/schemas.ts' },
  { q: 'how does deep partial make nested fields optional?', answer: 'v4/classic/deep-partial.ts' },
  { q: 'where are ISO datetime strings validated?', answer: ['v4/classic/iso.ts', 'v4/core/regexes.ts'] },
  { q: 'where is the ZodString class of zod 3?', answer: 'v3/types.ts' },
  { q: 'how is an error printed for people with prettifyError?', answer: 'v4/core/errors.ts' },
  { q: 'where is the code generator that builds strings of JavaScript (Doc)?', answer: 'v4/core/doc.ts' },
  { q: 'how are recursive schemas detected to avoid cycles?', answer: 'v4/core/memoizer.ts' },
  { q: 'where does visit walk a schema tree and rewrite nodes?', answer: 'v4/core/visit.ts' },
  { q: 'which file holds the French error messages?', answer: 'v4/locales/fr.ts' },
  { q: 'where is the zod version number?', answer: 'v4/core/versions.ts' },
];
