// The Markdown pipeline of replies: markdown-it (configured once per page), the block parser the
// streaming view splits with, and DOMPurify; every fragment it gives is sanitized or built from
// markdown-it's tokens (tokenDom.ts), never raw HTML.
import type { MarkdownIt } from 'markdown-it';
import { markdownBlockStarts, type BlockStarts } from './blocks';
import { createBlockParser, createMarkdown, type RenderEnv } from './markdown';
import { createSanitizer, type Sanitize } from './sanitize';
import { breakLongRuns } from './longWords';
import { tokensToFragment } from './tokenDom';

interface Pipeline {
  md: MarkdownIt;
  blockStarts: BlockStarts;
  sanitize: Sanitize;
}

// Configured once per page and stateless afterwards (per-reply state lives in each view).
let pipeline: Pipeline | undefined;
export function getPipeline(): Pipeline {
  pipeline ??= {
    md: createMarkdown(),
    blockStarts: markdownBlockStarts(createBlockParser()),
    sanitize: createSanitizer(window),
  };
  return pipeline;
}

/** Markdown -> sanitized DOM fragment, with the same configuration the reply view uses. */
export function renderMarkdownFragment(markdown: string, env: RenderEnv = {}): DocumentFragment {
  const { md, sanitize } = getPipeline();
  return sanitize(md.render(markdown, env));
}

/**
 * A finished block, or the open tail of a stream (`env.plainCode`): built from markdown-it's
 * tokens when the builder knows all of them (tokenDom.ts), else markdown-it's HTML through the
 * sanitizer (highlighted code, images). Both give the same nodes (test/render/run.ts compares them).
 */
export function renderFragment(markdown: string, env: RenderEnv): DocumentFragment {
  const { md, sanitize } = getPipeline();
  const tokens = md.parse(markdown, env);
  const fragment = tokensToFragment(document, tokens, env) ?? sanitize(md.renderer.render(tokens, md.options, env));
  breakLongRuns(fragment);
  return fragment;
}

/**
 * Markdown both ways, for the test that compares them: the builder's (null: it left it to the
 * sanitizer) and the sanitized one; `plainCode` as for a streaming tail, else as a finished block.
 */
export function renderBothWays(markdown: string, plainCode: boolean): { built: DocumentFragment | null; sanitized: DocumentFragment } {
  const { md } = getPipeline();
  const env = (): RenderEnv => ({ references: {}, plainCode });
  const builtEnv = env();
  return { built: tokensToFragment(document, md.parse(markdown, builtEnv), builtEnv), sanitized: renderMarkdownFragment(markdown, env()) };
}
