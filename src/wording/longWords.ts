// Where a long unbroken run of a reply's text may wrap: a browser lays such a word out again for
// each line it wraps when the page lets it break anywhere (seconds for 60,000 characters), so a run
// of more than LONG_WORD characters gets a <wbr> after every WORD_PART of them. The chat panel does
// it on the DOM (src/webview/render/longWords.ts), the exported web page on its HTML
// (src/core/export/htmlPage.ts); the text is unchanged.
export const LONG_WORD = 60;
export const WORD_PART = 40;

const LONG_RUN_TEST = new RegExp(`\\S{${LONG_WORD + 1}}`);

/** Whether `text` holds a run of more than LONG_WORD non-space characters (one that gets <wbr>s). */
export function hasLongRun(text: string): boolean {
  return text.length > LONG_WORD && LONG_RUN_TEST.test(text);
}
