/** The VetCall paw mark; decorative, so hidden from assistive technology. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect width="64" height="64" rx="14" fill="#0b7285" />
      <g fill="#fff">
        <ellipse cx="32" cy="42" rx="11" ry="9" />
        <circle cx="18" cy="28" r="5" />
        <circle cx="27" cy="20" r="5" />
        <circle cx="37" cy="20" r="5" />
        <circle cx="46" cy="28" r="5" />
      </g>
    </svg>
  );
}
