// Streams chunks through the real reply view, one a frame, and after every frame compares the
// reply with a fresh view given all the text so far at once (it renders its open tail whole, from
// scratch), rendered in the same frame: the check that the streaming fast paths show what a whole
// render shows. Used by the render tests (page.ts) and the render benchmark (bench/render/page.ts).
import { createReplyView, type RenderHooks } from '../../src/webview/render';

export async function streamAgainstFresh(app: HTMLElement, chunks: string[], hooks: RenderHooks = {}): Promise<{ frames: number; differs: number; first: string }> {
  const view = createReplyView(hooks);
  app.replaceChildren(view.element);
  let differs = 0;
  let first = '';
  let text = '';
  for (let i = 0; i < chunks.length; i++) {
    view.append(chunks[i]);
    text += chunks[i];
    const fresh = createReplyView(hooks);
    fresh.append(text);
    await new Promise((ok) => requestAnimationFrame(ok));
    const a = view.element.innerHTML;
    const b = fresh.element.innerHTML;
    fresh.dispose();
    if (a === b) continue;
    differs++;
    if (!first) {
      let at = 0;
      while (at < a.length && a[at] === b[at]) at++;
      first = `after chunk ${i} (${JSON.stringify(chunks[i])}): streamed …${a.slice(Math.max(0, at - 60), at + 60)}… fresh …${b.slice(Math.max(0, at - 60), at + 60)}…`;
    }
  }
  view.dispose();
  return { frames: chunks.length, differs, first };
}
