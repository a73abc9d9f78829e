import type { ButtonHTMLAttributes, ReactNode } from 'react';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'link';
  busy?: boolean;
  children: ReactNode;
}

/**
 * A button; while busy it stays in place, shows a small spinner and ignores clicks. Busy and disabled
 * buttons are aria-disabled, never disabled, so the button that was pressed keeps the focus.
 */
export function Button({ variant = 'primary', busy = false, children, className, type = 'button', disabled, onClick, ...rest }: Props) {
  const inactive = disabled || busy;
  return (
    <button
      {...rest}
      type={type}
      className={`cb-button cb-${variant}${className ? ` ${className}` : ''}`}
      aria-disabled={inactive || undefined}
      aria-busy={busy || undefined}
      onClick={(event) => (inactive ? event.preventDefault() : onClick?.(event))}
    >
      {busy && <span className="cb-spinner-ring cb-small" aria-hidden="true" />}
      {children}
    </button>
  );
}
