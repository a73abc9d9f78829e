import { useEffect, useRef, useState, type ReactNode } from 'react';

interface Props {
  label: string;
  /** what the action is about, for its accessible name ("Remove: ada@example.com") */
  about?: string;
  disabled?: boolean;
  /** what opens in place of the button; `close` brings the button back, with the focus on it */
  children: (close: () => void) => ReactNode;
}

/** An account action: a link-styled button that opens its form or dialog in place. */
export function Disclosure({ label, about, disabled, children }: Props) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);
  useEffect(() => {
    if (!open && opened.current) button.current?.focus();
    opened.current = open;
  }, [open]);
  if (open) return children(() => setOpen(false));
  return (
    <button ref={button} type="button" className="cb-link" part="link" aria-label={about ? `${label}: ${about}` : undefined} disabled={disabled} onClick={() => setOpen(true)}>
      {label}
    </button>
  );
}
