import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Renders a component into a real shadow root, the way the widget mounts. */
export function renderInShadow(node: ReactNode) {
  const host = document.createElement('div');
  document.body.append(host);
  const shadow = host.attachShadow({ mode: 'open' });
  const container = document.createElement('div');
  shadow.append(container);
  const root = createRoot(container);
  act(() => root.render(node));
  return {
    shadow,
    $: <E extends Element = HTMLElement>(selector: string) => shadow.querySelector<E>(selector),
    $$: <E extends Element = HTMLElement>(selector: string) => [...shadow.querySelectorAll<E>(selector)],
    rerender: (next: ReactNode) => act(() => root.render(next)),
    unmount: () => {
      act(() => root.unmount());
      host.remove();
    },
  };
}
