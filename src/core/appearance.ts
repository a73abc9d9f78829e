// Dark mode: on, off or auto (the system colour scheme). It toggles the body class cb-dark, the one
// style the widget puts on the host page, and the $dark atom that each shadow root follows.
import { atom } from 'nanostores';

export type DarkMode = 'on' | 'off' | 'auto';
export const DARK_BODY_CLASS = 'cb-dark';
export const $dark = atom(false);

let media: MediaQueryList | undefined;
const onSystemChange = () => apply(!!media?.matches);

function apply(dark: boolean): void {
  $dark.set(dark);
  document.body?.classList.toggle(DARK_BODY_CLASS, dark);
}

export function setDarkMode(mode: DarkMode = 'auto'): void {
  media?.removeEventListener('change', onSystemChange);
  media = undefined;
  if (mode === 'auto' && typeof matchMedia === 'function') {
    media = matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', onSystemChange);
    apply(media.matches);
  } else {
    apply(mode === 'on');
  }
}
