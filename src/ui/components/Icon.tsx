// The widget's own icons: simple line drawings on a 24-unit grid, coloured by currentColor.
import type { ReactElement } from 'react';

const paths = {
  // a key whose bow is a person's head: a passkey
  passkey: 'M9 3.5a3.5 3.5 0 1 1 0 7a3.5 3.5 0 0 1 0-7zM3 20c0-3.3 2.7-6 6-6c1.3 0 2.5.4 3.4 1.1M17 10.5a2.5 2.5 0 1 1 0 5a2.5 2.5 0 0 1 0-5zM17 15.5V21M17 18.5h2M17 20.5h1.5',
  edit: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
  mail: 'M3 6h18v12H3zM3 6l9 7l9-7',
  phone: 'M7 2.5h10v19H7zM11 18.5h2',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  warning: 'M12 3L2 20h20zM12 10v4.5M12 17v.5',
  back: 'M15 5l-7 7l7 7',
  close: 'M6 6l12 12M18 6L6 18',
  search: 'M10.5 4a6.5 6.5 0 1 1 0 13a6.5 6.5 0 0 1 0-13zM15.5 15.5L20 20',
  chevron: 'M7 10l5 5l5-5',
  shield: 'M12 3l7 3v5c0 4.5-3 8.2-7 10c-4-1.8-7-5.5-7-10V6zM9 12l2 2l4-4',
  sync: 'M4 12a8 8 0 0 1 14-5.3M20 12a8 8 0 0 1-14 5.3M18 3v4h-4M6 21v-4h4',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, className }: { name: IconName; className?: string }): ReactElement {
  return (
    <svg className={className ? `cb-icon ${className}` : 'cb-icon'} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={paths[name]} />
    </svg>
  );
}

/**
 * The providers' marks, drawn here after their public brand guidelines (they are meant for sign-in
 * buttons): Google's four-colour G, Microsoft's four squares, GitHub's cat in a circle, which takes the
 * text colour so that it reads in light and dark mode.
 */
const G_ARCS: [colour: string, path: string][] = [
  ['#ea4335', 'M17.4 7.5A7 7 0 0 0 6.3 8'],
  ['#fbbc05', 'M6.3 8a7 7 0 0 0 0 8'],
  ['#34a853', 'M6.3 16a7 7 0 0 0 11.1.5'],
  ['#4285f4', 'M17.4 16.5A7 7 0 0 0 19 12h-7'],
];
const MS_SQUARES = ['#f25022', '#7fba00', '#00a4ef', '#ffb900'];
const GITHUB =
  'M12 1a11 11 0 1 0 0 22a11 11 0 1 0 0-22zM9.6 22.7v-2.6c-1.5.2-2.4-.5-3-1.7c.7.6 1.6.9 3 .7v-2.5c-2.7-.5-4-2-4-4.7c0-1 .3-2 .9-2.7' +
  'c-.2-.8-.2-2.1.2-3.3c1.2.2 2.2.8 2.9 1.4c1.6-.4 3.2-.4 4.8 0c.7-.6 1.7-1.2 2.9-1.4c.4 1.2.4 2.5.2 3.3c.6.7.9 1.7.9 2.7' +
  'c0 2.7-1.3 4.2-4 4.7v6.1z';

export function ProviderMark({ provider }: { provider: 'google' | 'microsoft' | 'github' }): ReactElement {
  return (
    <svg className="cb-mark" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {provider === 'google' &&
        G_ARCS.map(([colour, d]) => <path key={colour} d={d} fill="none" stroke={colour} strokeWidth="4" />)}
      {provider === 'microsoft' &&
        MS_SQUARES.map((colour, i) => <rect key={colour} x={i % 2 ? 12.5 : 2} y={i > 1 ? 12.5 : 2} width="9.5" height="9.5" fill={colour} />)}
      {provider === 'github' && <path d={GITHUB} fill="currentColor" fillRule="evenodd" />}
    </svg>
  );
}
