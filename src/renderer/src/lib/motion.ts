// Whether the person asked the system for less motion (for animations CSS cannot reach).
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
