// happy-dom does no layout: give elements the sizes a browser would, so the virtualiser has
// a viewport to fill, and let tests move the scroll position.
const VIEWPORT = { width: 900, height: 600 };
const ROW_HEIGHT = 60;

export function installLayout(): void {
  const proto = HTMLElement.prototype;
  Object.defineProperty(proto, 'clientHeight', { configurable: true, get() { return VIEWPORT.height; } });
  Object.defineProperty(proto, 'clientWidth', { configurable: true, get() { return VIEWPORT.width; } });
  Object.defineProperty(proto, 'offsetHeight', { configurable: true, get() { return ROW_HEIGHT; } });
  Object.defineProperty(proto, 'offsetWidth', { configurable: true, get() { return VIEWPORT.width; } });
  Object.defineProperty(proto, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      // A scroller's content height is its sized child (the virtualiser sets it inline).
      for (const child of Array.from(this.children)) {
        const height = child instanceof HTMLElement ? parseFloat(child.style.height) : NaN;
        if (Number.isFinite(height)) return Math.max(height, VIEWPORT.height);
      }
      return VIEWPORT.height;
    },
  });
  // Like a browser: programmatic scrolling clamps to the content and fires a scroll event.
  const scrollTo = function scrollTo(this: HTMLElement, x?: ScrollToOptions | number, y?: number) {
    const top = typeof x === 'object' ? x?.top : y;
    if (top === undefined) return;
    this.scrollTop = Math.max(0, Math.min(Number(top), this.scrollHeight - this.clientHeight));
    setTimeout(() => this.dispatchEvent(new Event('scroll')), 0);
  } as typeof proto.scrollTo;
  proto.scrollTo = scrollTo;
  proto.scroll = scrollTo;
}

/** Scrolls an element and fires its scroll event, as a person scrolling would. */
export function scrollElement(element: HTMLElement, top: number): void {
  element.scrollTop = top;
  element.dispatchEvent(new Event('scroll'));
}
