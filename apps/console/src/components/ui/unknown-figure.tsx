/**
 * A figure that is not known: still loading, or its request failed. A dash, never a made-up 0;
 * screen readers hear the reason.
 */
export function UnknownFigure({ label = 'Unknown' }: { label?: string }) {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="sr-only">{label}</span>
    </>
  );
}
