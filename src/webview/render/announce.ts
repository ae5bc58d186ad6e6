// One visually hidden, polite live region per document for screen reader announcements.
const REGION_ID = 'reply-render-live-region';
const timers = new WeakMap<Element, ReturnType<typeof setTimeout>>();

function liveRegion(doc: Document): HTMLElement {
  let region = doc.getElementById(REGION_ID);
  if (!region) {
    region = doc.createElement('div');
    region.id = REGION_ID;
    region.className = 'render-sr-only';
    region.setAttribute('role', 'status');
    region.setAttribute('aria-live', 'polite');
    region.setAttribute('aria-atomic', 'true');
    // Visually hidden even without render.css (CSSOM styles are allowed by the panel's CSP).
    Object.assign(region.style, {
      position: 'absolute', width: '1px', height: '1px', margin: '-1px', padding: '0', border: '0',
      overflow: 'hidden', clip: 'rect(0 0 0 0)', clipPath: 'inset(50%)', whiteSpace: 'nowrap',
    });
    doc.body.append(region);
  }
  return region;
}

/** Announces `text` once to screen readers (a polite aria-live region). */
export function announce(text: string): void {
  const region = liveRegion(document);
  const pending = timers.get(region);
  if (pending !== undefined) clearTimeout(pending);
  // Clear first, then set after a moment, so that the same text twice is still announced.
  region.textContent = '';
  timers.set(
    region,
    setTimeout(() => {
      timers.delete(region);
      region.textContent = text;
    }, 50),
  );
}
