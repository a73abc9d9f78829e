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
  device: 'M3 5h18v11H3zM8 20h8M12 16v4',
} as const;

export type IconName = keyof typeof paths;

export function Icon({ name, className }: { name: IconName; className?: string }): ReactElement {
  return (
    <svg className={className ? `cb-icon ${className}` : 'cb-icon'} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={paths[name]} />
    </svg>
  );
}

/** Provider marks: the provider's initial in its brand colour, drawn here, not the providers' logos. */
const providerColours = { google: '#4285f4', microsoft: '#737373', github: '#24292f' } as const;

export function ProviderMark({ provider }: { provider: keyof typeof providerColours }): ReactElement {
  return (
    <svg className="cb-icon cb-provider-mark" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="10" fill={providerColours[provider]} stroke="none" />
      <text x="12" y={provider === 'github' ? 15.5 : 16.5} textAnchor="middle" fontSize={provider === 'github' ? 9 : 13} fontWeight="700" fill="#fff" stroke="none">
        {provider === 'github' ? 'GH' : provider[0]!.toUpperCase()}
      </text>
    </svg>
  );
}
